import fs from 'node:fs';
import path from 'node:path';
import type { RunDeploymentCommand } from '@outpost/contract/agent-protocol';
import type { z } from 'zod';
import type { StepResult } from '../steps/deployment-loop';

// The run_deployment commands this device has started, kept across agent restarts. The server
// re-offers a command until its result arrives, so after a restart (a crash, a reboot, a service
// restart) it offers a deployment that was running again. Its processes are gone and its
// progress numbers (seq) were used, so it is not run a second time: it is answered failed, and
// one that had finished (its result still in the outbox) is left alone.
//
// A deployment that restarts the device on purpose (a REBOOT step, an installer's 3010/1641 with
// "Reboot when the installer asks") is 'rebooting': its place is kept with it, and the agent that
// starts after the restart resumes it once (deployment/reboot-resume.ts).

export type RunState = 'running' | 'finished' | 'rebooting';

/** Where a deployment stopped for a restart (docs/product/rollouts.md#reboot-message-and-wait-steps). */
export type RebootPlace = {
  command: z.infer<typeof RunDeploymentCommand>;
  /** the step (and its attempt) the device restarted for */
  stepOrder: number;
  attempt: number;
  /** the results of the steps that ran before the restart */
  results: StepResult[];
  /** the seq of the last step_progress sent (the resumed run goes on from it) */
  seq: number;
  /** when the restart was ordered */
  at: string;
};

export type RunJournal = {
  get(commandId: string): RunState | undefined;
  /** `place` only with 'rebooting'; any other state forgets the place */
  set(commandId: string, state: RunState, place?: RebootPlace): void;
  /** the deployments waiting to resume after a restart */
  rebootPlaces(): [string, RebootPlace][];
};

type Entry = { state: RunState; place?: RebootPlace };

/** How many commands a journal remembers (the oldest are forgotten first). */
const KEEP = 500;

export function createMemoryJournal(): RunJournal {
  const runs = new Map<string, Entry>();
  return {
    get: (id) => runs.get(id)?.state,
    set: (id, state, place) => remember(runs, id, entryOf(state, place)),
    rebootPlaces: () => placesOf(runs),
  };
}

const entryOf = (state: RunState, place?: RebootPlace): Entry =>
  state === 'rebooting' && place ? { state, place } : { state: state === 'rebooting' ? 'running' : state };

function placesOf(runs: Map<string, Entry>): [string, RebootPlace][] {
  return [...runs].flatMap(([id, e]) => (e.state === 'rebooting' && e.place ? [[id, e.place]] : []));
}

function remember(runs: Map<string, Entry>, id: string, entry: Entry) {
  runs.delete(id);
  runs.set(id, entry);
  for (const old of runs.keys()) {
    if (runs.size <= KEEP) {
      break;
    }
    runs.delete(old);
  }
}

/** A journal saved to `file` (atomically, mode 0600) on every change. */
export function createFileJournal(file: string): RunJournal {
  const runs = new Map<string, Entry>();
  try {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
    for (const entry of Array.isArray(saved) ? saved : []) {
      // [id, state] or, for a deployment waiting for its restart, [id, 'rebooting', place]
      const [id, state, place] = Array.isArray(entry) ? (entry as unknown[]) : [];
      if (typeof id === 'string' && (state === 'running' || state === 'finished')) {
        runs.set(id, { state });
      } else if (typeof id === 'string' && state === 'rebooting' && isPlace(place)) {
        runs.set(id, { state, place });
      }
    }
  } catch {
    // no journal yet, or an unreadable one: nothing was running
  }
  return {
    get: (id) => runs.get(id)?.state,
    set(id, state, place) {
      remember(runs, id, entryOf(state, place));
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      const tmp = `${file}.${process.pid}.tmp`;
      const entries = [...runs].map(([key, e]) => (e.place ? [key, e.state, e.place] : [key, e.state]));
      fs.writeFileSync(tmp, JSON.stringify(entries), { mode: 0o600 });
      fs.renameSync(tmp, file);
    },
    rebootPlaces: () => placesOf(runs),
  };
}

function isPlace(value: unknown): value is RebootPlace {
  const p = value as Partial<RebootPlace> | null;
  return (
    typeof p === 'object' &&
    p !== null &&
    typeof p.command === 'object' &&
    typeof p.stepOrder === 'number' &&
    typeof p.seq === 'number' &&
    Array.isArray(p.results)
  );
}
