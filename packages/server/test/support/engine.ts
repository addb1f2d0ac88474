import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../src/db/client';
import type { Executor } from '../../src/lib/db';
import type { DeviceDeploymentRow, JobRow } from '../../src/modules/deployments/deployments.queries';
import type { Clock } from '../../src/modules/deployments/engine/clock';

// What the engine's unit tests inject: a clock that moves only when told, a database whose
// transactions run their callback at once (the queries are injected too), a log that records.

export type ManualClock = Clock & {
  /** moves time on, running the timers that fall due on the way, in order */
  advance(ms: number): Promise<void>;
  pending(): number;
};

export function manualClock(start = Date.parse('2026-11-26T12:00:00Z')): ManualClock {
  let now = start;
  let nextId = 0;
  const timers = new Map<number, { at: number; run: () => void; everyMs: number | null }>();
  const schedule = (ms: number, run: () => void, everyMs: number | null) => {
    const id = nextId++;
    timers.set(id, { at: now + ms, run, everyMs });
    return () => {
      timers.delete(id);
    };
  };
  const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
  return {
    now: () => now,
    after: (ms, run) => schedule(ms, run, null),
    every: (ms, run) => schedule(ms, run, ms),
    pending: () => timers.size,
    async advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = [...timers].filter(([, t]) => t.at <= until).sort(([, a], [, b]) => a.at - b.at)[0];
        if (!due) {
          break;
        }
        const [id, t] = due;
        now = t.at;
        if (t.everyMs === null) {
          timers.delete(id);
        } else {
          t.at += t.everyMs;
        }
        t.run();
        await flush();
      }
      now = until;
      await flush();
    },
  };
}

/** The transaction handle the fake database hands out (the injected queries ignore it). */
export const fakeTx = {} as Executor;

/** A database whose transactions run at once; `failing` makes the next ones throw. */
export function fakeDb(): Db & { transactions: number; failing: number } {
  const db = {
    transactions: 0,
    failing: 0,
    async transaction<T>(run: (tx: Executor) => Promise<T>): Promise<T> {
      db.transactions += 1;
      if (db.failing > 0) {
        db.failing -= 1;
        throw new Error('database away');
      }
      return run(fakeTx);
    },
  };
  return db as unknown as Db & { transactions: number; failing: number };
}

export type LogLine = { level: string; message: string };

export function recordingLog(): FastifyBaseLogger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at = (level: string) => (_obj: unknown, message?: string) => {
    lines.push({ level, message: message ?? '' });
  };
  return { lines, warn: at('warn'), error: at('error'), info: at('info') } as unknown as FastifyBaseLogger & {
    lines: LogLine[];
  };
}

export function job(over: Partial<JobRow> = {}): JobRow {
  const created = new Date('2026-11-26T11:00:00Z');
  return {
    id: 1,
    tenantId: 7,
    packageId: 3,
    packageName: 'Pkg',
    packageVersion: null,
    packageUpdatedAt: null,
    policyId: null,
    targetOs: 'windows',
    name: 'Job',
    description: null,
    status: 'pending',
    steps: [],
    scheduledAt: null,
    dispatchedAt: null,
    startedAt: null,
    completedAt: null,
    totalDevices: 0,
    completedDevices: 0,
    failedDevices: 0,
    createdBy: 2,
    createdByName: 'Admin',
    groupId: null,
    groupName: null,
    rollout: null,
    rolloutState: null,
    currentWave: null,
    rolloutStateReason: null,
    rolloutStateAt: null,
    onlyInWindows: false,
    kind: 'package',
    agentUpdate: null,
    scriptRun: null,
    createdAt: created,
    updatedAt: created,
    ...over,
  };
}

export function deviceRow(over: Partial<DeviceDeploymentRow> = {}): DeviceDeploymentRow {
  return {
    id: 10,
    jobId: 1,
    tenantId: 7,
    deviceId: 100,
    siteId: null,
    deviceGuid: '00000000-0000-4000-8000-000000000100',
    hostname: 'pc-1',
    ipAddress: null,
    status: 'pending',
    commandId: null,
    expiresAt: null,
    progressSeq: 0,
    currentStepOrder: null,
    startedAt: null,
    completedAt: null,
    errorMessage: null,
    rebootRequired: false,
    waveIndex: null,
    hold: null,
    holdUntil: null,
    holdNote: null,
    resumeStepOrder: null,
    ...over,
  };
}
