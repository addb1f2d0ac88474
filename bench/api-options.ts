import { parseArgs } from 'node:util';
import type { SeedPlan } from './api-seed';

// The api benchmark's options (api.ts) and the sizes they give.

export function apiOptions() {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      // one tenant of 1,000,000 devices (4 software rows and 7 days of activity each: 30 days are
      // 30 million rows, longer to seed than a run on a shared machine can give), its results in
      // bench/results/api-million.json
      million: { type: 'boolean', default: false },
      postgres: { type: 'string' },
      // seed into this existing database and keep it, or measure one seeded so before (no seeding)
      into: { type: 'string' },
      connections: { type: 'string', default: '10' },
      duration: { type: 'string' },
      runtime: { type: 'string', default: 'tsx' },
      keep: { type: 'boolean', default: false },
      // smaller or larger sizes than --quick and the full run (for trying the benchmark out)
      devices: { type: 'string' },
      total: { type: 'string' },
      tenants: { type: 'string' },
      'capture-only': { type: 'boolean', default: false },
      // then the device list cases on PGlite with the measured tenant alone (10,000 devices in --quick)
      pglite: { type: 'boolean', default: false },
      // EXPLAIN (ANALYZE, BUFFERS) every captured statement into bench/results/api-explain.txt
      explain: { type: 'boolean', default: false },
      // a checkout of the code before a change, its server measured beside this one (api-measure.ts)
      before: { type: 'string' },
    },
  });
  const quick = values.quick;
  const size: SeedPlan = values.million
    ? { devices: 1_000_000, total: 1_000_000, others: 0, software: 4, activityDays: 7 }
    : quick
      ? { devices: 10_000, total: 100_000, others: 9 }
      : { devices: 100_000, total: 1_000_000, others: 99 };
  if (values.devices) {
    size.devices = Number(values.devices);
  }
  if (values.total) {
    size.total = Number(values.total);
  }
  if (values.tenants) {
    size.others = Number(values.tenants) - 1;
  }
  return {
    values,
    quick,
    size,
    seconds: Number(values.duration ?? (quick ? 3 : 10)),
    warmupSeconds: quick ? 1 : 2,
    connections: Number(values.connections),
    /** the results file: api, or api-million */
    resultName: values.million ? 'api-million' : 'api',
  };
}
