// A probe worker for the tests (inventory/probe-worker.test.ts): the real worker loop with probes
// that answer predictably; PROBE_FIXTURE=real runs the machine's real probes.
import { runProbeWorker } from '../../src/inventory/probe-worker';
import type { Probes } from '../../src/inventory/probe-worker';

const fake = {
  collectFacts: () => Promise.resolve({ hostname: `worker-${process.pid}` }),
  collectNetwork: (url: string | null) =>
    Promise.resolve({ externalIp: url, dnsServers: [], interfaces: [] }),
  collectSoftware: () => Promise.reject(new Error('dpkg-query is not available')),
  collectServices: () => new Promise(() => process.exit(3)),
} as unknown as Probes;

runProbeWorker({
  idleMs: Number(process.env.PROBE_IDLE_MS) || 500,
  load:
    process.env.PROBE_FIXTURE === 'real'
      ? () => import('../../src/inventory/probes')
      : () => Promise.resolve(fake),
});
