import { and, desc, eq, isNull } from 'drizzle-orm';
import type { TerminalEndReason, TerminalSessionView } from '@outpost/contract/terminal';
import type { Executor, Reader } from '../../lib/db';
import { inScope } from '../../lib/scope';
import type { Scope } from '../../lib/scope';
import { terminalSessions } from '../../db/schema';

// docs/product/remote-access.md#terminal: the one writer of terminal_sessions.

export type NewTerminalSession = {
  id: string;
  tenantId: number;
  deviceId: number;
  siteId: number | null;
  userId: number;
  userName: string | null;
  deviceName: string | null;
  shell: string;
  recordingKey: string;
};

export async function insertSession(db: Executor, row: NewTerminalSession): Promise<void> {
  await db.insert(terminalSessions).values(row);
}

export async function endSession(
  db: Executor,
  id: string,
  end: {
    reason: TerminalEndReason;
    message: string;
    shell: string;
    bytesIn: number;
    bytesOut: number;
    recordingBytes: number | null;
  },
): Promise<void> {
  await db
    .update(terminalSessions)
    .set({
      endedAt: new Date(),
      endReason: end.reason,
      endMessage: end.message,
      shell: end.shell,
      bytesIn: end.bytesIn,
      bytesOut: end.bytesOut,
      recordingBytes: end.recordingBytes,
      ...(end.recordingBytes === null && { recordingKey: null }),
    })
    .where(and(eq(terminalSessions.id, id), isNull(terminalSessions.endedAt)));
}

const columns = {
  id: terminalSessions.id,
  deviceId: terminalSessions.deviceId,
  deviceName: terminalSessions.deviceName,
  userId: terminalSessions.userId,
  userName: terminalSessions.userName,
  shell: terminalSessions.shell,
  startedAt: terminalSessions.startedAt,
  endedAt: terminalSessions.endedAt,
  endReason: terminalSessions.endReason,
  endMessage: terminalSessions.endMessage,
  bytesIn: terminalSessions.bytesIn,
  bytesOut: terminalSessions.bytesOut,
  recordingKey: terminalSessions.recordingKey,
  recordingBytes: terminalSessions.recordingBytes,
};
const selectRows = (db: Reader) => db.select(columns).from(terminalSessions);
type Row = Awaited<ReturnType<typeof selectRows>>[number];

function toView(r: Row): TerminalSessionView {
  const started = r.startedAt;
  const ended = r.endedAt;
  return {
    id: r.id,
    device_id: r.deviceId,
    device_name: r.deviceName,
    user_id: r.userId ?? 0,
    user_name: r.userName,
    shell: r.shell,
    started_at: started.toISOString(),
    ended_at: ended ? ended.toISOString() : null,
    end_reason: r.endReason as TerminalEndReason | null,
    end_message: r.endMessage,
    duration_seconds: ended ? Math.max(0, Math.round((ended.getTime() - started.getTime()) / 1000)) : null,
    bytes_in: r.bytesIn,
    bytes_out: r.bytesOut,
    has_recording: r.recordingKey !== null && r.recordingBytes !== null,
  };
}

export async function listSessions(
  db: Reader,
  scope: Scope,
  filter: { deviceId?: number; limit: number },
): Promise<TerminalSessionView[]> {
  const rows = await selectRows(db)
    .where(
      and(
        inScope(terminalSessions, scope),
        filter.deviceId === undefined ? undefined : eq(terminalSessions.deviceId, filter.deviceId),
      ),
    )
    .orderBy(desc(terminalSessions.startedAt))
    .limit(filter.limit);
  return rows.map(toView);
}

export async function findSession(
  db: Reader,
  scope: Scope,
  id: string,
): Promise<(TerminalSessionView & { recordingKey: string | null }) | null> {
  const [row] = await selectRows(db).where(
    and(inScope(terminalSessions, scope), eq(terminalSessions.id, id)),
  );
  return row ? { ...toView(row), recordingKey: row.recordingKey } : null;
}
