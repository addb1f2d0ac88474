import { windowHoldNote, windowState } from '@outpost/contract/window-schedule';
import type { WindowSpec } from '@outpost/contract/window-schedule';
import type { Db } from '../../../db/client';
import type { Executor } from '../../../lib/db';
import type { CommandQueue } from '../../../live/command-queue';
import { runDeploymentOf } from '../job-command';
import type { JobRow } from '../deployments.queries';
import type { Clock } from './clock';
import type { DeviceDeploymentState } from './device-rows.queries';
import type { DeviceRowUpdate } from './job-updates';
import {
  claimDueWindowRows,
  holdAfterWindowClosed,
  holdForWindow,
  releaseWindowRows,
} from './windows.queries';
import type { WindowHold } from './windows.queries';

// Maintenance windows in the engine (docs/product/rollouts.md#maintenance-windows). A job "only
// inside maintenance windows" dispatches a device at once when it has no window or is inside
// one (its run carries when the window closes); otherwise its row is held until the next
// opening, and the release pass (each scheduler pass) dispatches it then, re-checking the window.
// A run the agent stopped before a step because the window would close waits for the next
// opening and resumes at that step. The windows come from the maintenance-windows module
// through the `WindowsFor` port.

/** A device's enabled windows and the zone they are read in. */
export type DeviceWindows = { timeZone: string; windows: WindowSpec[] };
/** The port the maintenance-windows module implements: devices without a window are absent. */
export type WindowsFor = (ex: Executor, deviceIds: number[]) => Promise<Map<number, DeviceWindows>>;

/** Held rows released per transaction. */
export const RELEASE_BATCH = 500;

type Decision = { inside: true; endsAt: number | null } | { inside: false; hold: Omit<WindowHold, 'id'> };

/** Whether a device may start now (no windows: yes, without an end) or waits, and until when. */
export function decide(windows: DeviceWindows | undefined, now: number, offlineExpiryMs: number): Decision {
  if (!windows || windows.windows.length === 0) {
    return { inside: true, endsAt: null };
  }
  const s = windowState(windows.windows, windows.timeZone, now);
  if (s.inside) {
    return { inside: true, endsAt: s.endsAt };
  }
  return {
    inside: false,
    hold: {
      until: s.nextOpensAt === null ? null : new Date(s.nextOpensAt),
      note: windowHoldNote(s.nextOpensAt, windows.timeZone),
      expiresAt: s.nextOpensAt === null ? null : new Date(s.nextOpensAt + offlineExpiryMs),
    },
  };
}

type Row = { dd: { id: number }; deviceId: number };

export type WindowGate = {
  /**
   * At dispatch: of a job's rows, those that start now (with their window's end when the job
   * runs only inside windows); the others are held. A job without the option passes all.
   */
  admit<R extends Row>(
    tx: Executor,
    job: Pick<JobRow, 'onlyInWindows'>,
    rows: R[],
  ): Promise<(R & { windowEndsAt?: string })[]>;
  /** dispatches held rows whose window has opened; answers how many rows it looked at */
  release(): Promise<number>;
  /** results of runs the agent stopped before a step (the window closing): held again, to resume there */
  windowClosed(
    tx: Executor,
    ends: { deviceId: number; commandId: string; stepOrder: number }[],
  ): Promise<DeviceDeploymentState[]>;
};

export function createWindowGate(deps: {
  db: Db;
  commandQueue: Pick<CommandQueue, 'queueCommands' | 'dispatch'>;
  windowsFor: WindowsFor;
  clock: Clock;
  offlineExpiryMs: number;
  /** the changed rows' job is settled and published */
  markUnsettled?: (jobId: number, dd?: DeviceRowUpdate) => void;
}): WindowGate {
  const { db, commandQueue, windowsFor, clock, offlineExpiryMs } = deps;

  async function admit<R extends Row>(tx: Executor, job: Pick<JobRow, 'onlyInWindows'>, rows: R[]) {
    if (!job.onlyInWindows || rows.length === 0) {
      return rows;
    }
    const windows = await windowsFor(
      tx,
      rows.map((r) => r.deviceId),
    );
    const now = clock.now();
    const ready: (R & { windowEndsAt?: string })[] = [];
    const holds: WindowHold[] = [];
    for (const row of rows) {
      const d = decide(windows.get(row.deviceId), now, offlineExpiryMs);
      if (d.inside) {
        ready.push(d.endsAt === null ? row : { ...row, windowEndsAt: new Date(d.endsAt).toISOString() });
      } else {
        holds.push({ id: row.dd.id, ...d.hold });
      }
    }
    await holdForWindow(tx, holds);
    return ready;
  }

  async function release(): Promise<number> {
    const woken = new Set<number>();
    const changed: { jobId: number; id: number }[] = [];
    const looked = await db.transaction(async (tx) => {
      const due = await claimDueWindowRows(tx, new Date(clock.now()), RELEASE_BATCH);
      if (due.length === 0) {
        return 0;
      }
      const windows = await windowsFor(
        tx,
        due.map((r) => r.deviceId),
      );
      const now = clock.now();
      const go: { row: (typeof due)[number]; endsAt: number | null }[] = [];
      const holds: WindowHold[] = [];
      for (const row of due) {
        const d = decide(windows.get(row.deviceId), now, offlineExpiryMs);
        if (d.inside) {
          go.push({ row, endsAt: d.endsAt });
        } else {
          holds.push({ id: row.id, ...d.hold });
        }
      }
      await holdForWindow(tx, holds);
      const commandIds = await commandQueue.queueCommands(
        tx,
        go.map(({ row, endsAt }) => ({
          tenantId: row.job.tenantId,
          deviceId: row.deviceId,
          command: {
            kind: 'run_deployment' as const,
            jobId: row.job.id,
            deviceDeploymentId: row.id,
            ...runDeploymentOf(row.job),
            ...(endsAt === null ? {} : { windowEndsAt: new Date(endsAt).toISOString() }),
            ...(row.resumeStepOrder === null ? {} : { startAtStep: row.resumeStepOrder }),
          },
          createdBy: row.job.createdBy,
          expiresInMs: offlineExpiryMs,
        })),
      );
      await releaseWindowRows(
        tx,
        go.map(({ row }, i) => ({ id: row.id, commandId: commandIds[i]! })),
        new Date(now + offlineExpiryMs),
      );
      for (const { row } of go) {
        woken.add(row.deviceId);
        changed.push({ jobId: row.job.id, id: row.id });
      }
      return due.length;
    });
    for (const c of changed) {
      deps.markUnsettled?.(c.jobId);
    }
    if (woken.size > 0) {
      await commandQueue.dispatch([...woken]);
    }
    return looked;
  }

  async function windowClosed(
    tx: Executor,
    ends: { deviceId: number; commandId: string; stepOrder: number }[],
  ): Promise<DeviceDeploymentState[]> {
    if (ends.length === 0) {
      return [];
    }
    const windows = await windowsFor(
      tx,
      ends.map((e) => e.deviceId),
    );
    // the window that just closed is not "inside" any more: look from its end on
    const now = clock.now();
    return holdAfterWindowClosed(
      tx,
      ends.map((e) => {
        const w = windows.get(e.deviceId);
        const d = decide(w, now, offlineExpiryMs);
        const hold = d.inside
          ? // still inside (the step was too long for what was left): wait for the next opening
            nextAfterCurrent(w, now, offlineExpiryMs)
          : d.hold;
        return { ...e, ...hold, note: `Window closed before step ${e.stepOrder}. ${hold.note}` };
      }),
    );
  }

  return { admit, release, windowClosed };
}

/** The hold until the opening after the current window (a step did not fit in what was left). */
function nextAfterCurrent(
  w: DeviceWindows | undefined,
  now: number,
  offlineExpiryMs: number,
): Omit<WindowHold, 'id'> {
  if (!w) {
    // the device lost its windows meanwhile: it may run at once
    return {
      until: new Date(now),
      note: windowHoldNote(now, 'UTC'),
      expiresAt: new Date(now + offlineExpiryMs),
    };
  }
  const s = windowState(w.windows, w.timeZone, now);
  const next = s.nextOpensAt;
  return {
    until: next === null ? null : new Date(next),
    note: windowHoldNote(next, w.timeZone),
    expiresAt: next === null ? null : new Date(next + offlineExpiryMs),
  };
}
