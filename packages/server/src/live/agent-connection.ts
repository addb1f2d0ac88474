import crypto from 'node:crypto';
import type { WebSocket } from 'ws';
import { AGENT_CLOSE, AgentMessage } from '@outpost/contract/agent-protocol';
import type { AgentErrorMessage, ServerToAgentMessage } from '@outpost/contract/agent-protocol';
import { messages } from '@outpost/contract/messages';
import type { DeviceRef } from './device-state';
import { createTokenBucket } from './rate-limit';

// One agent's socket: its state, its rate limit and its bounded, ordered message queue. Messages
// of one agent are handled one at a time, in order; a newer inventory or fault replaces one still
// waiting (it says everything the older one said), so a chatty agent cannot pile up work that
// slows every tenant; past the bound, or past its message rate, the socket is closed (1008).

export type MessageLimits = {
  /** messages an agent may send per second, and at once */
  messagesPerSecond: number;
  messageBurst: number;
  /** messages (and their bytes) waiting to be handled before the socket is closed */
  queueLimit: number;
  queueBytes: number;
};

const MAX_INVALID_MESSAGES = 10;

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
  hasHello = false;
  invalidCount = 0;
  lastMessageAt = Date.now();
  /** commands already pushed on this socket; a new socket gets them again (re-offer) */
  readonly offered = new Set<string>();
  private readonly queue: Queued[] = [];
  private queuedBytes = 0;
  private isDraining = false;
  private isClosed = false;
  private readonly bucket: ReturnType<typeof createTokenBucket>;

  constructor(
    readonly device: DeviceRef,
    readonly socket: WebSocket,
    readonly ip: string,
    private readonly limits: MessageLimits,
    private readonly handle: (conn: AgentConnection, message: AgentMessage) => Promise<void>,
    private readonly onError: (err: unknown) => void,
  ) {
    this.bucket = createTokenBucket(limits.messagesPerSecond, limits.messageBurst);
  }

  send(message: ServerToAgentMessage) {
    if (this.socket.readyState === this.socket.OPEN) {
      this.socket.send(JSON.stringify(message));
    }
  }

  sendError(code: AgentErrorMessage['code'], message: string, messageId?: string) {
    this.send({ type: 'error', code, message, ...(messageId && { messageId }) });
  }

  close(code: number, reason: string) {
    this.socket.close(code, reason);
  }

  terminate() {
    this.socket.terminate();
  }

  /** A frame arrived: rate-limit, parse, then queue it (or let it replace a superseded one). */
  receive(raw: string, isBinary: boolean) {
    this.lastMessageAt = Date.now();
    if (this.isClosed) {
      return;
    }
    if (!this.bucket.take()) {
      this.closeForPolicy(messages.agentTooManyMessages);
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
      this.rejectInvalid(issue ? `${issue.path.join('.') || 'message'}: ${issue.message}` : 'invalid');
      return;
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
    if (this.queuedMessages >= this.limits.queueLimit || this.queuedBytes + bytes > this.limits.queueBytes) {
      this.closeForPolicy(messages.agentTooManyMessages);
      return;
    }
    this.queuedBytes += bytes;
    this.queue.push({ kind: 'message', message, bytes });
    this.drain();
  }

  private drain() {
    if (this.isDraining) {
      return;
    }
    this.isDraining = true;
    void (async () => {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) {
        try {
          if (next.kind === 'task') {
            await next.run();
          } else {
            this.queuedBytes -= next.bytes;
            await this.handle(this, next.message);
          }
        } catch (err) {
          this.onError(err);
          if (next.kind === 'message') {
            this.sendError('internal_error', messages.internalError);
          }
        }
      }
      this.isDraining = false;
    })();
  }

  private rejectInvalid(detail: string) {
    this.invalidCount += 1;
    this.sendError('invalid_message', `${messages.agentInvalidMessage}: ${detail}`);
    if (this.invalidCount >= MAX_INVALID_MESSAGES) {
      this.close(AGENT_CLOSE.protocolError, 'Too many invalid messages');
    }
  }

  private closeForPolicy(reason: string) {
    this.discardMessages();
    this.close(AGENT_CLOSE.policyViolation, reason);
  }
}
