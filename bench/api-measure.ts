import fs from 'node:fs';
import path from 'node:path';
import { freePort, geometricMean, load, repoRoot, startChild } from './lib';

// The api benchmark's measurement of one case on one server (api.ts), and the server of the code
// before a change (`--before DIR`), run beside the current one so that before ÷ floor and after ÷
// floor come from one run on one database, the cases interleaved.

/**
 * CPU time of a process (user + system, /proc/<pid>/stat, clock ticks of 10 ms): per request, it
 * is what the process itself spends, which the machine's other load disturbs far less than
 * latency (Linux only; null elsewhere).
 */
export function cpuMs(pid: number | undefined): number | null {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

export type MeasureOptions = {
  connections: number;
  seconds: number;
  warmupSeconds: number;
  headers: Record<string, string>;
  log: (line: string) => void;
  /** runs between the warm-up and the measured run (the server's event-loop probe is reset there) */
  afterWarmup?: () => Promise<unknown>;
};

/** One case against one server: a short warm-up, then the measured run, with its CPU per request. */
export async function measureCase(url: string, pid: number | undefined, o: MeasureOptions) {
  // one request first, awaited: what a server computes once and then reuses (the activity
  // overview of a million devices: tens of seconds) is not the warm-up's 2 s
  await (await fetch(url, { headers: o.headers })).arrayBuffer();
  await load(url, { connections: o.connections, seconds: o.warmupSeconds, headers: o.headers });
  await o.afterWarmup?.();
  const before = cpuMs(pid);
  const r = await load(url, { connections: o.connections, seconds: o.seconds, headers: o.headers });
  const after = cpuMs(pid);
  if (r.non2xx + r.errors > 0) {
    // reported (a request slower than autocannon's 10 s timeout is an error), not fatal
    o.log(`${url}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  }
  const cpu = before !== null && after !== null && r.requests > 0 ? (after - before) / r.requests : null;
  return { ...r, cpu_ms_per_request: cpu === null ? null : Number(cpu.toFixed(3)) };
}

/**
 * The server of another checkout (`--before DIR`: a worktree or an
 * extracted commit whose node_modules resolve, e.g. a symlink to this one's), through tsx.
 */
export async function startBefore(
  dir: string,
  env: (port: number) => Record<string, string | undefined>,
  log: (line: string) => void,
) {
  const main = path.resolve(repoRoot, dir, 'packages/server/src/main.ts');
  if (!fs.existsSync(main)) {
    throw new Error(`--before ${dir}: ${main} is missing`);
  }
  const port = await freePort();
  const child = await startChild(['--import', 'tsx', main], env(port), /Outpost is ready at/);
  log(`the code before (${dir}) on :${port}`);
  return { port, child };
}

type Ratios = {
  name: string;
  rps: number;
  ratio: number;
  cpu_ms_per_request: number | null;
  floor_cpu_ms_per_request: number | null;
  before_rps?: number;
  before_ratio?: number;
  before_cpu_ms_per_request?: number | null;
};

/** The geometric mean of a ratio over the seven cases where the floor does the same work (no overview). */
export function comparableRatio<R extends Ratios>(rows: R[], ratio: (r: R) => number | undefined): number {
  return Number(
    geometricMean(rows.filter((r) => !r.name.includes('overview')).map((r) => ratio(r) ?? NaN)).toFixed(3),
  );
}

/** The table of a `--before` run: each case on the code before and after, beside the floor. */
export function printBeforeAfter(rows: Ratios[]): void {
  console.log(
    '\n| case | before req/s | after req/s | before ÷ floor | after ÷ floor | before CPU ms/req | after CPU ms/req | floor CPU ms/req |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${r.before_rps} | ${r.rps} | ${r.before_ratio} | ${r.ratio} | ` +
        `${r.before_cpu_ms_per_request} | ${r.cpu_ms_per_request} | ${r.floor_cpu_ms_per_request} |`,
    );
  }
  console.log(
    `\nthe seven comparable cases: before ÷ floor ${comparableRatio(rows, (r) => r.before_ratio)}, ` +
      `after ÷ floor ${comparableRatio(rows, (r) => r.ratio)}`,
  );
}
