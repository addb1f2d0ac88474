import { z } from 'zod';

// The agent protocol's remote access messages (docs/product/remote-access.md, docs/product/agent-protocol.md#remote-access):
// what the tenant allows (`remote_policy`), terminal sessions and file transfers. They are live
// traffic, not queued work: none carries a messageId or waits for an ack, and a message for an
// agent that is not connected is dropped (the session or transfer then times out and says so).
// Only an agent whose hello lists the `remote` capability is sent them.
//
//   server → agent: remote_policy, terminal_open, terminal_input, terminal_resize, terminal_close,
//                   fs_list, file_send, file_receive, file_cancel
//   agent → server: terminal_started, terminal_output, terminal_exit, fs_list_result, file_status
//
// Terminal bytes travel base64-encoded; `seq` numbers each direction's frames from 1 so the far
// end can drop a duplicate and notice a gap. File contents never travel on the socket: the agent
// streams them over HTTP (`PUT`/`GET /api/agent/transfers/{transferId}`) with its credentials, and
// each side hashes what it streams (sha256).

const sessionId = z.string().uuid();
const transferId = z.string().uuid();
const requestId = z.string().min(1).max(64);
/** base64 of at most 64 KiB */
const chunk = z.string().max(90_000);
const pathText = z.string().min(1).max(4096);

export const TERMINAL_SHELLS = ['default', 'powershell', 'cmd', 'bash', 'zsh', 'sh'] as const;
export const TerminalShell = z.enum(TERMINAL_SHELLS);
export type TerminalShell = z.infer<typeof TerminalShell>;

const cols = z.number().int().min(10).max(1000);
const rows = z.number().int().min(2).max(500);

// ---------- server → agent ----------

/** What the tenant allows this device; sent after the welcome and whenever it changes. */
export const RemotePolicyMessage = z.object({
  type: z.literal('remote_policy'),
  terminal: z.boolean(),
  files: z.boolean(),
  consent: z.boolean(),
  banner: z.boolean(),
});
export type RemotePolicyMessage = z.infer<typeof RemotePolicyMessage>;

export const TerminalOpenMessage = z.object({
  type: z.literal('terminal_open'),
  sessionId,
  shell: TerminalShell,
  cols,
  rows,
  /** who asks (shown in the consent prompt and the banner) */
  requestedBy: z.string().max(255),
  /** ask the signed-in user first; no answer within the prompt's time is a refusal */
  consent: z.boolean(),
  banner: z.boolean(),
  idleTimeoutSeconds: z.number().int().positive(),
  maxSeconds: z.number().int().positive(),
  maxBytesPerSecond: z.number().int().positive(),
});
export type TerminalOpenMessage = z.infer<typeof TerminalOpenMessage>;

export const TerminalInputMessage = z.object({
  type: z.literal('terminal_input'),
  sessionId,
  seq: z.number().int().positive(),
  data: chunk,
});
export type TerminalInputMessage = z.infer<typeof TerminalInputMessage>;

export const TerminalResizeMessage = z.object({ type: z.literal('terminal_resize'), sessionId, cols, rows });
export type TerminalResizeMessage = z.infer<typeof TerminalResizeMessage>;

export const TerminalCloseMessage = z.object({
  type: z.literal('terminal_close'),
  sessionId,
  reason: z.string().max(500),
});
export type TerminalCloseMessage = z.infer<typeof TerminalCloseMessage>;

export const FsListMessage = z.object({ type: z.literal('fs_list'), requestId, path: pathText });
export type FsListMessage = z.infer<typeof FsListMessage>;

/** Stream the file at `path` to the server (PUT /api/agent/transfers/{transferId}). */
export const FileSendMessage = z.object({
  type: z.literal('file_send'),
  transferId,
  path: pathText,
  maxBytes: z.number().int().positive(),
});
export type FileSendMessage = z.infer<typeof FileSendMessage>;

/** Fetch GET /api/agent/transfers/{transferId} into `path`, verified against size and sha256. */
export const FileReceiveMessage = z.object({
  type: z.literal('file_receive'),
  transferId,
  path: pathText,
  size: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  overwrite: z.boolean(),
});
export type FileReceiveMessage = z.infer<typeof FileReceiveMessage>;

export const FileCancelMessage = z.object({ type: z.literal('file_cancel'), transferId });
export type FileCancelMessage = z.infer<typeof FileCancelMessage>;

export const ServerRemoteMessage = z.discriminatedUnion('type', [
  RemotePolicyMessage,
  TerminalOpenMessage,
  TerminalInputMessage,
  TerminalResizeMessage,
  TerminalCloseMessage,
  FsListMessage,
  FileSendMessage,
  FileReceiveMessage,
  FileCancelMessage,
]);
export type ServerRemoteMessage = z.infer<typeof ServerRemoteMessage>;

// ---------- agent → server ----------

export const TerminalStartedMessage = z.object({
  type: z.literal('terminal_started'),
  sessionId,
  /** the program that runs (e.g. /bin/bash, powershell.exe) */
  shell: z.string().max(512),
});
export type TerminalStartedMessage = z.infer<typeof TerminalStartedMessage>;

export const TerminalOutputMessage = z.object({
  type: z.literal('terminal_output'),
  sessionId,
  seq: z.number().int().positive(),
  data: chunk,
});
export type TerminalOutputMessage = z.infer<typeof TerminalOutputMessage>;

export const TERMINAL_EXIT_REASONS = [
  'exited',
  'closed',
  'refused',
  'consent_denied',
  'idle',
  'max_length',
  'error',
] as const;
export const TerminalExitMessage = z.object({
  type: z.literal('terminal_exit'),
  sessionId,
  reason: z.enum(TERMINAL_EXIT_REASONS),
  exitCode: z.number().int().nullable().optional(),
  message: z.string().max(2000).nullable().optional(),
});
export type TerminalExitMessage = z.infer<typeof TerminalExitMessage>;

export const FsEntry = z.object({
  name: z.string().max(1024),
  kind: z.enum(['file', 'dir', 'link', 'other']),
  size: z.number().int().min(0).nullable(),
  modifiedAt: z.string().max(64).nullable(),
});
export type FsEntry = z.infer<typeof FsEntry>;

export const FsListResultMessage = z.object({
  type: z.literal('fs_list_result'),
  requestId,
  /** the folder listed, made absolute */
  path: z.string().max(4096),
  entries: z.array(FsEntry).max(10_000),
  /** more entries than were sent */
  truncated: z.boolean().optional(),
  /** the folder could not be listed (or remote files are turned off) */
  error: z.string().max(2000).nullable().optional(),
});
export type FsListResultMessage = z.infer<typeof FsListResultMessage>;

/** How a transfer ended on the agent's side (after its HTTP request finished). */
export const FileStatusMessage = z.object({
  type: z.literal('file_status'),
  transferId,
  ok: z.boolean(),
  size: z.number().int().min(0).nullable().optional(),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable()
    .optional(),
  error: z.string().max(2000).nullable().optional(),
});
export type FileStatusMessage = z.infer<typeof FileStatusMessage>;

export const AgentRemoteMessage = z.discriminatedUnion('type', [
  TerminalStartedMessage,
  TerminalOutputMessage,
  TerminalExitMessage,
  FsListResultMessage,
  FileStatusMessage,
]);
export type AgentRemoteMessage = z.infer<typeof AgentRemoteMessage>;
export const AGENT_REMOTE_TYPES: readonly AgentRemoteMessage['type'][] = [
  'terminal_started',
  'terminal_output',
  'terminal_exit',
  'fs_list_result',
  'file_status',
];
