import { z } from 'zod';
import { INT4_MAX, refineInput, textProblem } from './input';
import { HardwareInfo, INVENTORY_KINDS, InventoryKind, NetworkInfo, Service, SoftwareItem } from './devices';
import { AgentCommand, COMMAND_RESULT_STATUSES } from './agent-commands';
import { architectureField } from './targets';
import { ChecksMessage, CheckResultsMessage, MetricsMessage } from './agent-monitoring';
import * as remote from './agent-remote';

// The agent protocol (docs/product/agent-protocol.md#enrolment). Agents enrol over HTTP (POST /api/agent/enroll) and then
// hold one websocket (WS /api/agent/ws) authenticated with their device guid and secret:
//
//   agent → server: hello, heartbeat, inventory, activity, fault, command_result, step_progress,
//                   check_results, metrics
//   server → agent: welcome, command, ack, error, checks
//
// The database is the queue: every command is a row first and is re-offered on every (re)connect
// until its result arrives, so delivery is at-least-once. Agent messages that must not be lost
// (inventory, activity, command_result, step_progress) carry a `messageId`; the server answers
// with `ack {messageId}` once it has persisted them, and handles a resent message idempotently.
// An agent whose hello lists the `ack_lists` capability may get one ack for several messages
// (`ack {messageId, messageIds}`); others get one ack per message (docs/architecture.md#live-layer-and-agents).
//
// The commands (server → agent) and their results live in agent-commands.ts, the monitoring
// messages (checks, check_results, metrics) in agent-monitoring.ts, the remote access messages
// (terminal, files, remote_policy) in agent-remote.ts; this file re-exports them.

export * from './agent-commands';
export * from './agent-monitoring';
export * from './agent-remote';

export const AGENT_PROTOCOL_VERSION = 1;
export const SUPPORTED_AGENT_PROTOCOL_VERSIONS: readonly number[] = [1];
export const DEFAULT_HEARTBEAT_INTERVAL_MS = 30_000;

/** Headers of the websocket upgrade request: the device guid and, as a bearer token, its secret. */
export const AGENT_DEVICE_HEADER = 'x-outpost-device';

/** Close codes of the agent socket (4000–4999 are application codes). */
export const AGENT_CLOSE = {
  protocolError: 4400,
  unsupportedVersion: 4426,
  replaced: 4409,
  deviceRemoved: 4410,
  helloTimeout: 4408,
  heartbeatTimeout: 4504,
  /** the agent sent faster than its message budget or queued more than it may (RFC 6455 1008) */
  policyViolation: 1008,
} as const;

const id = z.string().min(1).max(128);
const isoTime = z.string().max(64);

// ---------- enrolment (HTTP) ----------

export const EnrollFacts = z.object({
  hostname: z.string().min(1).max(255),
  osType: z.string().max(64),
  osVersion: z.string().max(255),
  architecture: architectureField,
  agentVersion: z.string().max(64),
  serialNumber: z.string().max(255).nullable().optional(),
  /** a stable machine id (/etc/machine-id, MachineGuid, IOPlatformUUID); recorded, never trusted as identity */
  machineId: z.string().max(255).nullable().optional(),
  manufacturer: z.string().max(255).nullable().optional(),
  model: z.string().max(255).nullable().optional(),
  ipAddress: z.string().max(64).nullable().optional(),
});
export type EnrollFacts = z.infer<typeof EnrollFacts>;

export const EnrollBody = z
  .object({
    token: z.string().min(1, 'token is required').max(256),
    facts: EnrollFacts,
    /**
     * The identity the agent holds now (a reinstall that kept its configuration). Re-enrolment
     * keeps the device record only when both match it; otherwise a new device is enrolled.
     */
    device_guid: z.string().max(64).optional(),
    agent_secret: z.string().max(256).optional(),
  })
  .refine((b) => (b.device_guid === undefined) === (b.agent_secret === undefined), {
    message: 'device_guid and agent_secret are given together or not at all',
    path: ['agent_secret'],
  });
export type EnrollBody = z.infer<typeof EnrollBody>;

export const EnrollResult = z.object({
  device_guid: z.string(),
  agent_secret: z.string(),
  /** true when the agent proved its current identity and kept its device record */
  reused: z.boolean(),
});
export type EnrollResult = z.infer<typeof EnrollResult>;

// ---------- shared pieces ----------

export const UserSession = z.object({
  sessionId: id,
  userName: z.string().max(255),
  ipAddress: z.string().max(64).nullable().optional(),
  startedAt: isoTime.optional(),
});
export type UserSession = z.infer<typeof UserSession>;

export const ActivityEvent = z.object({
  eventType: z.enum(['login', 'logout']),
  userName: z.string().max(255),
  sessionId: id,
  ipAddress: z.string().max(64).nullable().optional(),
  timestamp: isoTime,
});
export type ActivityEvent = z.infer<typeof ActivityEvent>;

// ---------- agent → server ----------

/**
 * Digests of inventory parts (hardware, network, software, services), so an agent that returns
 * with an unchanged inventory need not resend it (docs/decisions/2026-11-26-fleet-scale.md). A digest is
 * opaque to the server: it keeps the digest of each part it stored and only compares them. An
 * agent without digests (older versions) works as before and always sends every part.
 */
const digest = z.string().min(1).max(128).optional();
// An object, not a record keyed by the kinds: a part a newer agent adds is dropped, not refused.
export const InventoryDigests = z.object({
  hardware: digest,
  network: digest,
  software: digest,
  services: digest,
}) satisfies z.ZodType<Partial<Record<InventoryKind, string>>>;
export type InventoryDigests = z.infer<typeof InventoryDigests>;

/**
 * What an agent understands beyond protocol version 1, listed in its hello. Both sides ignore
 * what they do not know (an older server strips the field), so a capability never needs a new
 * protocol version: the server uses one only with an agent that listed it.
 */
export const AGENT_CAPABILITIES = {
  /** `ack` may carry `messageIds`: several messages acknowledged by one frame */
  ackLists: 'ack_lists',
  /**
   * the agent evaluates checks: the server sends it `checks` after its welcome and whenever its
   * set changes; it answers with `check_results` (on change only) and `metrics` once a minute
   */
  checks: 'checks',
  /**
   * remote access (agent-remote.ts): the server sends `remote_policy` after its welcome and on
   * change, and terminal and file messages; the agent answers them
   */
  remote: 'remote',
} as const;

export const HelloMessage = z.object({
  type: z.literal('hello'),
  protocolVersion: z.number().int(),
  capabilities: z.array(z.string().max(64)).max(32).optional(),
  agentVersion: z.string().max(64),
  hostname: z.string().min(1).max(255),
  osType: z.string().max(64),
  osVersion: z.string().max(255),
  architecture: architectureField,
  ipAddress: z.string().max(64).nullable().optional(),
  /**
   * user sessions open right now: the server sets loggedin from them, records a login for any it
   * did not have open and a logout for open ones the hello no longer lists
   */
  sessions: z.array(UserSession).max(256).default([]),
  /**
   * the digests of the inventory parts the server last acknowledged; the welcome names the ones
   * the server still holds (`inventoryCurrent`)
   */
  inventoryDigests: InventoryDigests.optional(),
  /** the agent started again after it crashed (it did not stop cleanly): an alert opens */
  restartedAfterCrash: z
    .object({ at: isoTime, reason: z.string().max(2000).nullable().optional() })
    .optional(),
});
export type HelloMessage = z.infer<typeof HelloMessage>;

export const HeartbeatMessage = z.object({
  type: z.literal('heartbeat'),
  sentAt: isoTime.optional(),
});
export type HeartbeatMessage = z.infer<typeof HeartbeatMessage>;

/** Any part present replaces what the server holds for it. */
export const NotReportedPart = z.object({ kind: InventoryKind, reason: z.string().max(500) });
export type NotReportedPart = z.infer<typeof NotReportedPart>;
export const InventoryMessage = z.object({
  type: z.literal('inventory'),
  messageId: id,
  collectedAt: isoTime,
  facts: z
    .object({
      hostname: z.string().min(1).max(255).optional(),
      osType: z.string().max(64).optional(),
      osVersion: z.string().max(255).optional(),
      architecture: architectureField,
      serialNumber: z.string().max(255).nullable().optional(),
      manufacturer: z.string().max(255).nullable().optional(),
      model: z.string().max(255).nullable().optional(),
      ipAddress: z.string().max(64).nullable().optional(),
    })
    .optional(),
  hardware: HardwareInfo.optional(),
  network: NetworkInfo.optional(),
  software: z.array(SoftwareItem).max(10_000).optional(),
  services: z.array(Service).max(5_000).optional(),
  /** the digest of each part the message carries; the server stores it with the part */
  digests: InventoryDigests.optional(),
  /**
   * The parts the agent asked for and could not collect, with why (a probe that did not answer,
   * no PowerShell); sent once the collection ends, empty when a later one had them all.
   */
  notReported: z.array(NotReportedPart).max(INVENTORY_KINDS.length).optional(),
});
export type InventoryMessage = z.infer<typeof InventoryMessage>;

export const ActivityMessage = z.object({
  type: z.literal('activity'),
  messageId: id,
  events: z.array(ActivityEvent).min(1).max(500),
});
export type ActivityMessage = z.infer<typeof ActivityMessage>;

/** The agent reports a fault (status error) or its end (active false). */
export const FaultMessage = z.object({
  type: z.literal('fault'),
  active: z.boolean(),
  message: z.string().max(2000).optional(),
  /**
   * memory_limit: the agent passed its memory limit and is about to restart; besides the device's
   * fault, the server keeps it in the device's activity log (docs/agent.md#footprint)
   */
  reason: z.enum(['memory_limit']).optional(),
});
export type FaultMessage = z.infer<typeof FaultMessage>;

export const CommandResultMessage = z.object({
  type: z.literal('command_result'),
  messageId: id,
  commandId: id,
  status: z.enum(COMMAND_RESULT_STATUSES),
  result: z.record(z.string(), z.unknown()).nullable().optional(),
  error: z.string().max(4000).nullable().optional(),
  finishedAt: isoTime.optional(),
});
export type CommandResultMessage = z.infer<typeof CommandResultMessage>;

/**
 * Progress of one step of a run_deployment command: 'running' when an attempt starts, output
 * chunks (status 'running' with stdout/stderr: text printed since the previous message), then
 * the attempt's final status. `seq` counts the command's progress messages from 1, so a message
 * resent after a lost ack is recognised and applied once. A step that did not run (an earlier
 * step failed, or the deployment was cancelled first) is reported once as 'cancelled' with neither
 * `attempt` nor `startedAt`: it is no attempt, so it has no log and is never the current step.
 */
/** A process's exit code: a signed 32-bit status, or a Windows DWORD as Node reports it (0xC0000005). */
export const ExitCode = z.number().int().min(-2_147_483_648).max(4_294_967_295);

export const StepProgressMessage = z.object({
  type: z.literal('step_progress'),
  messageId: id,
  commandId: id,
  seq: z.number().int().positive().max(INT4_MAX),
  stepOrder: z.number().int().positive().max(INT4_MAX),
  /** 'skipped': a condition was false (docs/product/rollouts.md#step-conditions); `note` says which */
  status: z.enum(['running', 'completed', 'failed', 'cancelled', 'skipped']),
  attempt: z.number().int().positive().max(INT4_MAX).optional(),
  exitCode: ExitCode.nullable().optional(),
  stdout: z.string().max(65_536).nullable().optional(),
  stderr: z.string().max(65_536).nullable().optional(),
  errorMessage: z.string().max(4000).nullable().optional(),
  startedAt: isoTime.optional(),
  completedAt: isoTime.optional(),
  /** the step log's note: a deferred reboot, a message no one saw (docs/product/rollouts.md#step-log) */
  note: z.string().max(2000).nullable().optional(),
  /** the device restarts for this step now: the server holds the row as 'rebooting' until the next progress */
  hold: z.literal('rebooting').optional(),
});
export type StepProgressMessage = z.infer<typeof StepProgressMessage>;

export const AgentMessage = z
  .discriminatedUnion('type', [
    CheckResultsMessage,
    MetricsMessage,
    HelloMessage,
    HeartbeatMessage,
    InventoryMessage,
    ActivityMessage,
    FaultMessage,
    CommandResultMessage,
    StepProgressMessage,
    remote.TerminalStartedMessage,
    remote.TerminalOutputMessage,
    remote.TerminalExitMessage,
    remote.FsListResultMessage,
    remote.FileStatusMessage,
  ])
  .superRefine(refineInput); // no NUL characters, bounded nesting: as every HTTP request
export type AgentMessage = z.infer<typeof AgentMessage>;
export type AgentMessageType = AgentMessage['type'];
/** Agent messages that carry a messageId and wait for an ack. */
export type AckedAgentMessage = Extract<AgentMessage, { messageId: string }>;

// ---------- server → agent ----------

export const WelcomeMessage = z.object({
  type: z.literal('welcome'),
  protocolVersion: z.number().int(),
  deviceGuid: z.string(),
  heartbeatIntervalMs: z.number().int().positive(),
  serverTime: isoTime,
  /**
   * the inventory parts whose digest in the hello matches the part the server holds: while the
   * agent's part still has that digest it may leave it out of its inventory (absent from older
   * servers: send every part)
   */
  // plain names: a part a newer server adds must not make an older agent refuse its welcome
  inventoryCurrent: z.array(z.string().max(64)).max(16).optional(),
});
export type WelcomeMessage = z.infer<typeof WelcomeMessage>;

export const CommandMessage = z.object({
  type: z.literal('command'),
  commandId: id,
  issuedAt: isoTime,
  command: AgentCommand,
});
export type CommandMessage = z.infer<typeof CommandMessage>;

/** The most messages one ack frame acknowledges. */
export const MAX_ACK_LIST = 1000;
/**
 * The server has persisted `messageId`, and every id of `messageIds` (sent only to an agent with
 * the `ack_lists` capability; an agent without it would keep those messages and resend them).
 */
export const AckMessage = z.object({
  type: z.literal('ack'),
  messageId: id,
  messageIds: z
    .array(id)
    .max(MAX_ACK_LIST - 1)
    .optional(),
});
export type AckMessage = z.infer<typeof AckMessage>;

/**
 * The messageId of a frame the server refused (not a valid message), when it carries one the agent
 * can recognise: the server answers `invalid_message` with that id and acknowledges it, so the
 * agent drops the message from its outbox rather than resending it after every reconnect
 * (SECURITY.md R2-11). Resending cannot help: the same bytes are refused again.
 */
export function refusedMessageId(frame: unknown): string | null {
  if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) {
    return null;
  }
  const messageId: unknown = (frame as { messageId?: unknown }).messageId;
  if (typeof messageId !== 'string' || !id.safeParse(messageId).success || textProblem(messageId)) {
    return null;
  }
  return messageId;
}

export const AGENT_ERROR_CODES = [
  'invalid_message',
  'hello_required',
  'unknown_command',
  'internal_error',
] as const;
export const AgentErrorMessage = z.object({
  type: z.literal('error'),
  code: z.enum(AGENT_ERROR_CODES),
  message: z.string(),
  messageId: id.optional(),
});
export type AgentErrorMessage = z.infer<typeof AgentErrorMessage>;

export const ServerToAgentMessage = z.discriminatedUnion('type', [
  WelcomeMessage,
  ChecksMessage,
  CommandMessage,
  AckMessage,
  AgentErrorMessage,
  remote.RemotePolicyMessage,
  remote.TerminalOpenMessage,
  remote.TerminalInputMessage,
  remote.TerminalResizeMessage,
  remote.TerminalCloseMessage,
  remote.FsListMessage,
  remote.FileSendMessage,
  remote.FileReceiveMessage,
  remote.FileCancelMessage,
]);
export type ServerToAgentMessage = z.infer<typeof ServerToAgentMessage>;
