import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { isSea } from 'node:sea';
import type * as ProbesModule from './probes';

// The probes in a process of their own (docs/agent.md#footprint): on Linux, systeminformation
// and the platform adapters cost the agent about 10 MB of resident memory once loaded, and an
// idle agent needs none of it. The agent starts itself as a worker (`__probe-worker`, over Node's
// IPC channel) when it collects, and the worker exits when it has had nothing to do for a while,
// so the memory is given back to the machine between collections.

/** The probes a worker answers, by name (inventory/probes.ts). */
export const PROBE_NAMES = [
  'collectFacts',
  'collectHardware',
  'collectNetwork',
  'collectSoftware',
  'collectServices',
  'collectSessions',
  'collectVolumeMounts',
] as const;
export type ProbeName = (typeof PROBE_NAMES)[number];
export type Probes = typeof ProbesModule;

type Request = { id: number; probe: ProbeName; args: unknown[] };
type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

/** How long a worker with nothing to do stays: a hello and the inventory after it share one. */
export const WORKER_IDLE_MS = 20_000;
/** The worker's command line word; main.ts runs the worker for it. */
export const PROBE_WORKER_COMMAND = '__probe-worker';

/** The worker's side: answers requests until the agent disconnects or it has been idle. */
export function runProbeWorker(options: { idleMs?: number; load?: () => Promise<Probes> } = {}): void {
  const load = options.load ?? (() => import('./probes'));
  const idleMs = options.idleMs ?? WORKER_IDLE_MS;
  let idle: NodeJS.Timeout | null = null;
  let pending = 0;
  const armIdle = () => {
    if (idle) {
      clearTimeout(idle);
    }
    idle = pending === 0 ? setTimeout(() => process.exit(0), idleMs) : null;
  };
  process.on('disconnect', () => process.exit(0));
  process.on('message', (message: Request) => {
    pending += 1;
    armIdle();
    void (async () => {
      let reply: Reply;
      try {
        const probes = await load();
        const probe = probes[message.probe] as (...args: unknown[]) => Promise<unknown>;
        reply = { id: message.id, ok: true, value: await probe(...message.args) };
      } catch (err) {
        reply = { id: message.id, ok: false, error: err instanceof Error ? err.message : String(err) };
      }
      pending -= 1;
      armIdle();
      process.send?.(reply);
    })();
  });
  armIdle();
}

/** How the agent starts a worker: itself, with the worker's word. */
export function workerCommand(): { file: string; args: string[] } {
  // a single executable is its own script (its flags are built in); from a script (`node
  // agent.cjs`, tsx in development) the worker runs the same script with the same flags
  return isSea()
    ? { file: process.execPath, args: [PROBE_WORKER_COMMAND] }
    : { file: process.execPath, args: [...process.execArgv, process.argv[1]!, PROBE_WORKER_COMMAND] };
}

/**
 * The agent's side: each probe call runs in the worker, started on first use and again after it
 * exited. A worker that dies fails the calls it had (the inventory says which part was missing).
 */
export function createProbeClient(command = workerCommand()): Probes & { close(): void } {
  let child: ChildProcess | null = null;
  let nextId = 1;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  const start = (): ChildProcess => {
    const c = spawn(command.file, command.args, {
      // the worker writes nothing; what it would print on a crash goes to the agent's log
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'json',
      windowsHide: true,
    });
    c.on('message', (reply: Reply) => {
      const w = waiting.get(reply.id);
      waiting.delete(reply.id);
      if (reply.ok) {
        w?.resolve(reply.value);
      } else {
        w?.reject(new Error(reply.error));
      }
    });
    c.on('exit', (code, signal) => {
      if (child === c) {
        child = null;
      }
      for (const w of waiting.values()) {
        w.reject(new Error(`the probe worker exited (${signal ?? `code ${code}`})`));
      }
      waiting.clear();
    });
    // an idle agent does not wait for its worker to exit
    c.unref();
    c.channel?.unref();
    return c;
  };
  const call = (probe: ProbeName, args: unknown[]) =>
    new Promise<unknown>((resolve, reject) => {
      child ??= start();
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      // while a call waits, the channel keeps the agent's event loop (and the reply) alive
      child.channel?.ref();
      child.send({ id, probe, args } satisfies Request, (err) => {
        if (err) {
          waiting.delete(id);
          reject(err);
        }
      });
    }).finally(() => {
      if (waiting.size === 0) {
        child?.channel?.unref();
      }
    });
  const client = Object.fromEntries(
    PROBE_NAMES.map((name) => [name, (...args: unknown[]) => call(name, args)]),
  ) as unknown as Probes;
  return {
    ...client,
    close: () => {
      child?.kill();
      child = null;
    },
  };
}
