import { z } from 'zod';
import { TERMINAL_EXIT_REASONS, TerminalShell } from './agent-remote';
import { IdParam } from './input';

// The remote terminal (docs/product/remote-access.md#terminal): the browser's socket
// (GET /api/customer/devices/{id}/terminal, upgraded), the sessions list and their recordings.
// The browser socket carries JSON text frames; terminal bytes travel base64-encoded.

export const TERMINAL_SIZE = { colsMin: 10, colsMax: 1000, rowsMin: 2, rowsMax: 500 } as const;

/** The query of the browser socket (the session token travels like the portal socket's). */
export const TerminalSocketQuery = z.object({
  token: z.string().min(1).max(4096),
  shell: TerminalShell.default('default'),
  cols: z.coerce.number().int().min(TERMINAL_SIZE.colsMin).max(TERMINAL_SIZE.colsMax).default(80),
  rows: z.coerce.number().int().min(TERMINAL_SIZE.rowsMin).max(TERMINAL_SIZE.rowsMax).default(24),
});
export type TerminalSocketQuery = z.infer<typeof TerminalSocketQuery>;

// ---------- browser → server ----------

export const TerminalClientMessage = z.discriminatedUnion('type', [
  /** keystrokes or pasted text, as UTF-8 text */
  z.object({
    type: z.literal('input'),
    data: z
      .string()
      .min(1)
      .max(64 * 1024),
  }),
  z.object({
    type: z.literal('resize'),
    cols: z.number().int().min(TERMINAL_SIZE.colsMin).max(TERMINAL_SIZE.colsMax),
    rows: z.number().int().min(TERMINAL_SIZE.rowsMin).max(TERMINAL_SIZE.rowsMax),
  }),
  z.object({ type: z.literal('close') }),
]);
export type TerminalClientMessage = z.infer<typeof TerminalClientMessage>;

// ---------- server → browser ----------

/**
 * Why a session ended: the agent's reasons (agent-remote.ts) and the server's own: the device
 * went offline, the agent never answered, the browser went away, the server stopped.
 */
export const TERMINAL_END_REASONS = [
  ...TERMINAL_EXIT_REASONS,
  'device_offline',
  'no_answer',
  'disconnected',
  'server_stopped',
] as const;
export type TerminalEndReason = (typeof TERMINAL_END_REASONS)[number];

export type TerminalServerMessage =
  /** the session was asked for; `consent`: the device's user is being asked first */
  | { type: 'status'; state: 'opening' | 'consent'; sessionId: string }
  | { type: 'started'; sessionId: string; shell: string }
  | { type: 'output'; data: string }
  /** something the person should know that does not end the session (input over the rate) */
  | { type: 'notice'; message: string }
  | { type: 'ended'; reason: TerminalEndReason; message: string; exitCode?: number | null };

export const terminalMessages = {
  badQuery: 'Give the terminal a shell and a size (cols 10–1000, rows 2–500)',
  agentNoAnswer: 'The device did not answer: check that its agent is running',
  deviceOffline: 'The device went offline',
  browserGone: 'The browser disconnected',
  serverStopped: 'The server stopped',
  inputTooFast: 'Input arrives faster than the session allows: some was dropped',
  windowsShellOnly: 'PowerShell and cmd are for Windows devices',
  notWindowsShell: 'Choose PowerShell or cmd on a Windows device',
  sessionNotFound: 'Terminal session not found',
  recordingMissing: 'This session has no recording',
} as const;

/** A sentence for each end reason, when the agent gave none. */
export const TERMINAL_END_TEXT: Record<TerminalEndReason, string> = {
  exited: 'The shell exited',
  closed: 'Disconnected',
  refused: 'The device refused the terminal',
  consent_denied: 'The user on the device did not allow the session',
  idle: 'Ended after the idle timeout',
  max_length: 'Ended at the longest session allowed',
  error: 'The terminal failed on the device',
  device_offline: terminalMessages.deviceOffline,
  no_answer: terminalMessages.agentNoAnswer,
  disconnected: terminalMessages.browserGone,
  server_stopped: terminalMessages.serverStopped,
};

// ---------- sessions ----------

export const TerminalSessionView = z.object({
  id: z.string(),
  device_id: z.number().int(),
  device_name: z.string().nullable(),
  user_id: z.number().int(),
  user_name: z.string().nullable(),
  shell: z.string(),
  started_at: z.string(),
  ended_at: z.string().nullable(),
  /** null while the session runs */
  end_reason: z.enum(TERMINAL_END_REASONS).nullable(),
  end_message: z.string().nullable(),
  duration_seconds: z.number().int().nullable(),
  bytes_in: z.number().int(),
  bytes_out: z.number().int(),
  has_recording: z.boolean(),
});
export type TerminalSessionView = z.infer<typeof TerminalSessionView>;

export const TerminalSessionsQuery = z.object({
  device_id: IdParam.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
