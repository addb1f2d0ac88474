// How long the server's event loop is blocked: a preload for the server process (node --import)
// and the benchmark's side of it (docs/development.md#benchmarks).
//
// The server process started with `...eventLoopArgs(file).args, main.js` samples its event loop
// (the preload, bench/event-loop-preload.mjs)
// (perf_hooks.monitorEventLoopDelay with a 10 ms timer: each sample is the time between two turns
// of that timer, 10 ms when nothing blocks, 10 ms + B after a synchronous stretch of B ms). On
// SIGUSR2 it writes what it saw since the last SIGUSR2 (or its start) to the file and starts
// again: the benchmark resets before a case and reads after it, so each case has its own worst
// block, block_ms = the longest sample less the 10 ms. A synchronous stretch (a PGlite query runs
// on the event loop's thread, a JSON encoding, a compile) of that length held every other request.
import fs from 'node:fs';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';

export type EventLoopDelay = { block_ms: number; p99_block_ms: number; samples: number };

const PRELOAD_FLAG = 'OUTPOST_BENCH_EVENT_LOOP_FILE';

/** Node options that make a server process report its event loop's delay to `file`. */
export function eventLoopArgs(file: string): { args: string[]; env: Record<string, string> } {
  return {
    args: ['--import', path.join(import.meta.dirname, 'event-loop-preload.mjs')],
    env: { [PRELOAD_FLAG]: file },
  };
}

/** Asks the process for its delays since the last call (or its start), and starts again. */
export async function takeEventLoopDelay(child: ChildProcess, file: string): Promise<EventLoopDelay | null> {
  const before = fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0;
  fs.rmSync(file, { force: true });
  child.kill('SIGUSR2');
  for (let i = 0; i < 100; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (fs.existsSync(file) && fs.statSync(file).mtimeMs !== before) {
      try {
        return JSON.parse(fs.readFileSync(file, 'utf8')) as EventLoopDelay;
      } catch {
        // written but not yet whole: the next turn reads it again
      }
    }
  }
  return null;
}
