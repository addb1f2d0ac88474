// `npm run bench -- <name> [options]`: runs bench/<name>.ts in its own process with the options
// given (every benchmark takes --quick: smaller sizes, shorter runs, the same code path).
// `npm run bench -- all [--quick]` runs every benchmark listed in ALL, one after the other.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The benchmarks `all` runs, one after the other (they write bench/results/<name>.json). */
const ALL = ['api', 'fleet', 'deploy', 'rollout', 'web', 'footprint', 'scripts', 'terminal'];

const dir = import.meta.dirname;
const [name, ...rest] = process.argv.slice(2);
const scripts = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
  .map((f) => f.slice(0, -3))
  .filter((n) => !['run', 'lib'].includes(n));
// a benchmark's helpers are named after it (api-seed, fleet-setup, fleet-portal)
const available = scripts.filter((n) => !scripts.some((other) => other !== n && n.startsWith(`${other}-`)));

if (!name || (name !== 'all' && !available.includes(name))) {
  console.error(`usage: npm run bench -- <name> [--quick] [options]\n  names: all, ${available.join(', ')}`);
  process.exit(2);
}

let failed = 0;
for (const bench of name === 'all' ? ALL : [name]) {
  console.error(`\n== bench ${bench} ${rest.join(' ')}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, `${bench}.ts`), ...rest], {
    stdio: 'inherit',
  });
  if (r.status !== 0) {
    console.error(`bench ${bench} failed (exit ${r.status ?? r.signal})`);
    failed++;
  }
}
process.exit(failed ? 1 : 0);
