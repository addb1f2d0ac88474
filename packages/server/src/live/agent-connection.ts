import crypto from 'node:crypto';
import type { WebSocket } from 'ws';
import {
  AGENT_CAPABILITIES,
  AGENT_CLOSE,
  AgentMessage,
  MAX_ACK_LIST,
  refusedMessageId,
} from '@outpost/contract/agent-protocol';
import type {
  AgentErrorMessage,
  ServerToAgentMessage,
  StepProgressMessage,
} from '@outpost/contract/agent-protocol';
import { messages } from '@outpost/contract/messages';
import type { DeviceRef } from './device-state';
import { TokenBucket } from './rate-limit';

// One agent's socket: its state, its message rate and its bounded, ordered message queue, so one
// agent cannot pile up work that slows every tenant:
// - messages of one agent are handled one at a time, in order, at most `messagesPerSecond` (after
//   a burst); faster ones wait; the live traffic of remote access (a terminal's output, a folder
//   listing, a transfer's status) has its own, larger budget (LIVE_MESSAGES_PER_SECOND): a
//   session's bytes are bounded by its rate (docs/product/remote-access.md#terminal), and on the
//   general budget a typist's echo waited 50 ms a key once 200 frames had passed;
// - a newer inventory, fault or heartbeat replaces one still waiting (it says everything the
//   older one said);
// - when `queueLimit` messages or `queueBytes` bytes wait, the socket stops reading (TCP
//   backpressure slows the agent) until half of it is handled, so an agent resending a large
//   outbox after a reconnect is slowed, never cut off;
// - frames that still arrive past twice `queueBytes` close the socket with 1008;
// - a closed socket's waiting messages are dropped;
// - step_progress messages waiting one after another are handed over together (a run, in order,
//   up to RUN_MAX_MESSAGES and RUN_MAX_BYTES), so the engine applies them in one batch and they are
//   acknowledged together (docs/decisions/2026-11-26-deployments-at-scale.md).

/** remote access's live messages of one agent handled per second, and at once */
export const LIVE_MESSAGES_PER_SECOND = 1000;

const LIVE_TRAFFIC = new Set<AgentMessage['type']>([
  'terminal_started',
  'terminal_output',
  'terminal_exit',
  'fs_list_result',
  'file_status',
]);

export type MessageLimits = {
  /** messages of one agent handled per second, and at once */
  messagesPerSecond: number;
  messageBurst: number;
  /** messages (and their bytes) waiting before the socket stops reading; twice the bytes closes it */
  queueLimit: number;
  queueBytes: number;
};

/** Time, injectable for tests. */
export type Clock = { now(): number; wait(ms: number): Promise<void> };
const realClock: Clock = {
  now: () => Date.now(),
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref()),
};

/** frames that are not a valid message an agent may send before it is closed (4400) */
export const MAX_INVALID_MESSAGES = 10;

/** Consecutive step_progress messages of one agent, handled together in their order. */
export type ProgressRun = { type: 'progress_run'; messages: StepProgressMessage[] };
/** What the connection hands its handler: a message, or step progress as a run. */
export type HandledMessage = Exclude<AgentMessage, { type: 'step_progress' }> | ProgressRun;

/** At most this many step_progress messages, and about this many bytes, per run. */
export const RUN_MAX_MESSAGES = 64;
const RUN_MAX_BYTES = 256 * 1024;

type Queued =
  { kind: 'message'; message: AgentMessage; bytes: number } | { kind: 'task'; run: () => Promise<void> };

/** The inventory parts a message carries; a newer message carrying all of them supersedes it. */
function inventoryParts(m: Extract<AgentMessage, { type: 'inventory' }>): string[] {
  return (['facts', 'hardware', 'network', 'software', 'services'] as const).filter(
    (k) => m[k] !== undefined,
  );
}

function supersedes(newer: AgentMessage, older: AgentMessage): boolean {
  if (newer.type === 'inventory' && older.type === 'inventory') {
    const parts = new Set(inventoryParts(newer));
    return inventoryParts(older).every((p) => parts.has(p));
  }
  return (newer.type === 'fault' || newer.type === 'heartbeat') && older.type === newer.type;
}

export class AgentConnection {
  readonly connectionId = crypto.randomUUID();
  private helloRecorded = false;
  private helloTimer: NodeJS.Timeout | null = null;
  /** the agent's hello listed `ack_lists`: one ack frame may acknowledge several messages */
  takesAckLists = false;
  /** the agent's hello listed `checks`: it runs the check set it is sent (agent-monitoring.ts) */
  takesChecks = false;
  /** the agent's hello listed `remote`: it takes terminal and file messages (agent-remote.ts) */
  takesRemote = false;
  /** the revision of the check set last sent on this socket */
  checksRevision: string | null = null;
  invalidCount = 0;
  lastMessageAt = Date.now();
  /** commands already pushed on this socket; a new socket gets them again (re-offer) */
  readonly offered = new Set<string>();
  private readonly queue: Queued[] = [];
  private queuedBytes = 0;
  private isDraining = false;
  private isClosed = false;
  private isPaused = false;
  private readonly bucket: TokenBucket;
  private readonly liveBucket: TokenBucket;
  /** gives back the connection's place at the hello gate (gate.ts), while it holds one */
  private leaveGate: (() => void) | null = null;

  constructor(
    readonly device: DeviceRef,
    readonly socket: WebSocket,
    readonly ip: string,
    private readonly limits: MessageLimits,
    private readonly handle: (conn: AgentConnection, message: HandledMessage) => Promise<void>,
    private readonly onError: (conn: AgentConnection, err: unknown) => void,
    private readonly clock: Clock = realClock,
  ) {
    this.bucket = new TokenBucket(limits.messagesPerSecond, limits.messageBurst, clock);
    this.liveBucket = new TokenBucket(LIVE_MESSAGES_PER_SECOND, LIVE_MESSAGES_PER_SECOND, clock);
  }

  /** Its hello is recorded (the agent was welcomed). */
  get hasHello(): boolean {
    return this.helloRecorded;
  }

  /** Closes the socket unless a hello is recorded within `ms`. */
  expectHello(ms: number) {
    this.helloTimer = setTimeout(() => {
      this.helloTimer = null;
      if (!this.helloRecorded) {
        this.close(AGENT_CLOSE.helloTimeout, messages.agentHelloRequired);
      }
    }, ms);
    this.helloTimer.unref();
  }

  helloDone() {
    this.helloRecorded = true;
    this.clearHelloTimer();
  }

  private clearHelloTimer() {
    if (this.helloTimer) {
      clearTimeout(this.helloTimer);
      this.helloTimer = null;
    }
  }

  /**
   * The connection holds a place at the hello gate from its hello until `left()` (its first
   * inventory is stored, or it closes) or `ms` at most, so an agent that sends no inventory does
   * not keep others waiting.
   */
  holdGate(leave: () => void, ms: number) {
    const timer = setTimeout(() => this.leftGate(), ms);
    timer.unref();
    this.leaveGate = () => {
      clearTimeout(timer);
      leave();
    };
  }

  leftGate() {
    const leave = this.leaveGate;
    this.leaveGate = null;
    leave?.();
  }

  send(message: ServerToAgentMessage) {
    if (this.socket.readyState === this.socket.OPEN) {
      this.socket.send(JSON.stringify(message));
    }
  }

  /** Acknowledges these messages: in frames of up to MAX_ACK_LIST ids when the agent takes lists. */
  ack(messageIds: readonly string[]) {
    if (!this.takesAckLists) {
      for (const messageId of messageIds) {
        this.send({ type: 'ack', messageId });
      }
      return;
    }
    for (let i = 0; i < messageIds.length; i += MAX_ACK_LIST) {
      const [messageId, ...rest] = messageIds.slice(i, i + MAX_ACK_LIST);
      this.send({ type: 'ack', messageId: messageId!, ...(rest.length > 0 && { messageIds: rest }) });
    }
  }

  sendError(code: AgentErrorMessage['code'], message: string, messageId?: string) {
    this.send({ type: 'error', code, message, ...(messageId && { messageId }) });
  }

  /** Still open: not closed by either side. */
  get isOpen(): boolean {
    return !this.isClosed && this.socket.readyState === this.socket.OPEN;
  }

  close(code: number, reason: string) {
    this.socket.close(code, reason);
  }

  terminate() {
    this.socket.terminate();
  }

  /** A frame arrived: parse it, then queue it (or let it replace a superseded one). */
  receive(raw: string, isBinary: boolean) {
    this.lastMessageAt = Date.now();
    if (this.isClosed) {
      return;
    }
    if (isBinary) {
      this.rejectInvalid('binary frames are not accepted');
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      this.rejectInvalid('not JSON');
      return;
    }
    const parsed = AgentMessage.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const detail = issue ? `${issue.path.join('.') || 'message'}: ${issue.message}` : 'invalid';
      this.rejectInvalid(detail, refusedMessageId(json));
      return;
    }
    if (parsed.data.type === 'hello') {
      this.takesAckLists = parsed.data.capabilities?.includes(AGENT_CAPABILITIES.ackLists) === true;
      this.takesChecks = parsed.data.capabilities?.includes(AGENT_CAPABILITIES.checks) === true;
      this.takesRemote = parsed.data.capabilities?.includes(AGENT_CAPABILITIES.remote) === true;
    }
    this.queueMessage(parsed.data, Buffer.byteLength(raw));
  }

  /** Runs after every message queued so far (presence uses it to go offline in order). */
  enqueue(run: () => Promise<void>) {
    this.queue.push({ kind: 'task', run });
    this.drain();
  }

  /** The socket closed: messages not yet handled are dropped (tasks still run). */
  discardMessages() {
    this.isClosed = true;
    this.clearHelloTimer();
    this.leftGate();
    for (let i = this.queue.length - 1; i >= 0; i--) {
      if (this.queue[i]?.kind === 'message') {
        this.queue.splice(i, 1);
      }
    }
    this.queuedBytes = 0;
  }

  get queuedMessages(): number {
    return this.queue.filter((q) => q.kind === 'message').length;
  }

  private queueMessage(message: AgentMessage, bytes: number) {
    const index = this.queue.findIndex((q) => q.kind === 'message' && supersedes(message, q.message));
    const older = this.queue[index];
    if (older?.kind === 'message') {
      // The older message is answered as handled: the newer one carries everything it said.
      if ('messageId' in older.message) {
        this.send({ type: 'ack', messageId: older.message.messageId });
      }
      this.queuedBytes += bytes - older.bytes;
      this.queue[index] = { kind: 'message', message, bytes };
      return;
    }
    if (this.queuedBytes + bytes > 2 * this.limits.queueBytes) {
      this.closeForPolicy(messages.agentTooManyMessages);
      return;
    }
    this.queuedBytes += bytes;
    this.queue.push({ kind: 'message', message, bytes });
    if (this.queuedMessages >= this.limits.queueLimit || this.queuedBytes >= this.limits.queueBytes) {
      this.isPaused = true;
      this.socket.pause();
    }
    this.drain();
  }

  /** Reading resumes once half the waiting work is done. */
  private resumeIfDrained() {
    const isDrained =
      this.queuedMessages <= this.limits.queueLimit / 2 && this.queuedBytes <= this.limits.queueBytes / 2;
    if (this.isPaused && isDrained && !this.isClosed) {
      this.isPaused = false;
      this.socket.resume();
    }
  }

  /** Waits for the agent's message budget (the rate limit) once it ran out. */
  private async waitForToken(bucket: TokenBucket, perSecond: number) {
    while (!this.isClosed && !bucket.take()) {
      await this.clock.wait(Math.ceil(1000 / perSecond));
    }
  }

  /**
   * The step_progress messages waiting right behind `first` (each within the message budget),
   * taken off the queue: the run handed over with it.
   */
  private takeRun(first: StepProgressMessage, bytes: number): ProgressRun {
    const messages = [first];
    let runBytes = bytes;
    for (
      let q = this.queue[0];
      q?.kind === 'message' && q.message.type === 'step_progress';
      q = this.queue[0]
    ) {
      if (messages.length >= RUN_MAX_MESSAGES || runBytes + q.bytes > RUN_MAX_BYTES || !this.bucket.take()) {
        break;
      }
      this.queue.shift();
      this.queuedBytes -= q.bytes;
      runBytes += q.bytes;
      messages.push(q.message);
    }
    return { type: 'progress_run', messages };
  }

  private drain() {
    if (this.isDraining) {
      return;
    }
    this.isDraining = true;
    void (async () => {
      // the frames of one read arrive synchronously: let them all queue, so a run takes them
      await Promise.resolve();
      for (let next = this.queue.shift(); next; next = this.queue.shift()) {
        try {
          if (next.kind === 'task') {
            await next.run();
          } else {
            this.queuedBytes -= next.bytes;
            const m = next.message;
            const isLive = LIVE_TRAFFIC.has(m.type);
            const bucket = isLive ? this.liveBucket : this.bucket;
            if (!bucket.take()) {
              await this.waitForToken(
                bucket,
                isLive ? LIVE_MESSAGES_PER_SECOND : this.limits.messagesPerSecond,
              );
            }
            const handled = m.type === 'step_progress' ? this.takeRun(m, next.bytes) : m;
            this.resumeIfDrained();
            if (!this.isClosed) {
              await this.handle(this, handled);
            }
          }
        } catch (err) {
          this.onError(this, err);
          if (next.kind === 'message') {
            this.sendError('internal_error', messages.internalError);
          }
        }
      }
      this.isDraining = false;
    })();
  }

  /**
   * A frame that is not a valid message. One carrying a messageId is also acknowledged: the agent
   * would otherwise keep it in its outbox and resend it after every reconnect, refused each time.
   */
  private rejectInvalid(detail: string, messageId: string | null = null) {
    this.invalidCount += 1;
    this.sendError('invalid_message', `${messages.agentInvalidMessage}: ${detail}`, messageId ?? undefined);
    if (messageId !== null) {
      this.send({ type: 'ack', messageId });
    }
    if (this.invalidCount >= MAX_INVALID_MESSAGES) {
      this.close(AGENT_CLOSE.protocolError, 'Too many invalid messages');
    }
  }

  private closeForPolicy(reason: string) {
    this.discardMessages();
    this.close(AGENT_CLOSE.policyViolation, reason);
  }
}
