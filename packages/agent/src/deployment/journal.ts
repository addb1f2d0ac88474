import fs from 'node:fs';
import path from 'node:path';

// The run_deployment commands this device has started, kept across agent restarts. The server
// re-offers a command until its result arrives, so after a restart (a crash, a reboot, a service
// restart) it offers a deployment that was running again. Its processes are gone and its
// progress numbers (seq) were used, so it is not run a second time: it is answered failed, and
// one that had finished (its result still in the outbox) is left alone.

export type RunState = 'running' | 'finished';

export type RunJournal = {
  get(commandId: string): RunState | undefined;
  set(commandId: string, state: RunState): void;
};

/** How many commands a journal remembers (the oldest are forgotten first). */
const KEEP = 500;

export function createMemoryJournal(): RunJournal {
  const runs = new Map<string, RunState>();
  return { get: (id) => runs.get(id), set: (id, state) => remember(runs, id, state) };
}

function remember(runs: Map<string, RunState>, id: string, state: RunState) {
  runs.delete(id);
  runs.set(id, state);
  for (const old of runs.keys()) {
    if (runs.size <= KEEP) {
      break;
    }
    runs.delete(old);
  }
}

/** A journal saved to `file` (atomically, mode 0600) on every change. */
export function createFileJournal(file: string): RunJournal {
  const runs = new Map<string, RunState>();
  try {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
    for (const entry of Array.isArray(saved) ? saved : []) {
      const [id, state] = Array.isArray(entry) ? (entry as unknown[]) : [];
      if (typeof id === 'string' && (state === 'running' || state === 'finished')) {
        runs.set(id, state);
      }
    }
  } catch {
    // no journal yet, or an unreadable one: nothing was running
  }
  return {
    get: (id) => runs.get(id),
    set(id, state) {
      remember(runs, id, state);
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify([...runs]), { mode: 0o600 });
      fs.renameSync(tmp, file);
    },
  };
}
