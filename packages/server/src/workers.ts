// WEB_WORKERS=N (N > 1): one instance as N server processes sharing its port (node:cluster), for
// more agent sockets than one process may hold (its open-file limit) and for more than one core.
// Each worker is an instance as in the multi-instance layout (docs/operations.md#running-in-production):
// its own database pool, its agents' presence and its share of the leased jobs; live updates, commands
// and presence reach the other workers through the Redis bus, so REDIS_URL and PostgreSQL are required.
// The primary only forks and restarts a worker that dies; the workers accept from the shared
// listening socket themselves (SCHED_NONE, below); it opens no database. Worker 1 alone seeds and runs the
// demo; METRICS_PORT is given to worker 1 and METRICS_PORT + k − 1 to worker k
// ([decision](../../../docs/decisions/2026-11-27-fifty-thousand-agents.md)).
import cluster, { type Worker } from 'node:cluster';
import type { Config } from './config';
import { ConfigError } from './lib/config-error';

export type WorkerReady = { type: 'outpost-ready'; url: string; database: string };

/** Why the configuration cannot run as workers, or null. */
export function workerModeProblem(config: Pick<Config, 'databaseUrl' | 'redisUrl'>): string | null {
  if (!config.databaseUrl) {
    return 'WEB_WORKERS > 1 needs DATABASE_URL (PostgreSQL): PGlite is one process per directory.';
  }
  if (!config.redisUrl) {
    return 'WEB_WORKERS > 1 needs REDIS_URL: the workers pass live updates, commands and presence through Redis.';
  }
  return null;
}

/** The environment worker `index` (1-based) starts with. */
export function workerEnv(index: number, env: NodeJS.ProcessEnv): Record<string, string> {
  const metricsPort = env.METRICS_PORT?.trim() ? Number(env.METRICS_PORT) : null;
  return {
    OUTPOST_WORKER: String(index),
    ...(index > 1 && { OUTPOST_DEMO: '0' }),
    ...(metricsPort !== null && { METRICS_PORT: String(metricsPort + index - 1) }),
  };
}

/** Tells the primary this worker listens (instead of printing the banner). */
export function reportReady(ready: WorkerReady) {
  process.send?.(ready);
}

/** The primary: forks `count` workers, prints `banner` once all listen, stops them on SIGTERM/SIGINT. */
export function runWorkers(
  config: Config,
  count: number,
  banner: (ready: WorkerReady, count: number) => void,
) {
  const problem = workerModeProblem(config);
  if (problem) {
    throw new ConfigError(problem);
  }
  // Each worker accepts from the shared listening socket itself (SCHED_NONE) instead of the primary
  // accepting every connection and handing it over one IPC round trip at a time: the primary
  // accepts without backpressure, so a returning fleet's connections piled up in it (18,901 open
  // files) while slow workers took them one by one and the agents timed out and came again. The
  // kernel's listen backlog is the backpressure, and a busy worker simply accepts less.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  const workers = new Map<number, Worker>();
  const started = new Set<number>();
  let stopping = false;
  let announced = false;
  const fork = (index: number) => {
    const worker = cluster.fork(workerEnv(index, process.env));
    workers.set(index, worker);
    worker.on('message', (m: WorkerReady) => {
      if (m?.type !== 'outpost-ready') {
        return;
      }
      started.add(index);
      if (!announced && started.size === count) {
        announced = true;
        banner(m, count);
      } else if (announced) {
        console.log(`Outpost worker ${index} is ready again`);
      }
    });
    worker.on('exit', (code, signal) => {
      if (stopping) {
        return;
      }
      // a worker that died is replaced; its agents reconnect to the others meanwhile
      console.error(`Outpost worker ${index} exited (${signal ?? code}); starting it again in 1 s`);
      setTimeout(() => fork(index), 1000).unref();
    });
  };
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      return;
    }
    stopping = true;
    // each worker drains for up to 10 s (main.ts); the primary waits for them, then exits
    const alive = [...workers.values()].filter((w) => !w.isDead());
    const killer = setTimeout(() => alive.forEach((w) => w.process.kill('SIGKILL')), 15_000).unref();
    let left = alive.length;
    if (left === 0) {
      process.exit(0);
    }
    for (const w of alive) {
      w.once('exit', () => {
        if (--left === 0) {
          clearTimeout(killer);
          process.exit(0);
        }
      });
      w.process.kill(signal);
    }
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  for (let index = 1; index <= count; index++) {
    fork(index);
  }
}
