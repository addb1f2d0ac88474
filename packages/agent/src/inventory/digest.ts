import crypto from 'node:crypto';
import { INVENTORY_KINDS } from '@outpost/contract/devices';
import type { InventoryKind } from '@outpost/contract/devices';
import type { InventoryDigests, InventoryMessage } from '@outpost/contract/agent-protocol';

// Inventory digests (docs/decisions/2026-11-26-fleet-scale.md): an agent that reconnects leaves out the
// parts the server already holds unchanged. The server never recomputes a digest the agent gave,
// it only compares them, so the encoding is the agent's own choice.

type Parts = Pick<InventoryMessage, InventoryKind>;

/** sha256 of the part as it is sent. */
export function inventoryDigest(part: unknown): string {
  return crypto.createHash('sha256').update(JSON.stringify(part)).digest('base64url');
}

/**
 * What the agent knows of the server's copy of its inventory: the digests the server
 * acknowledged, trimmed at each welcome to the parts the server says it still holds.
 */
export class InventoryLedger {
  /** the digest of each part the server acknowledged and (as of the last welcome) still holds */
  private confirmed: InventoryDigests = {};
  /** the digests of inventory messages sent and not yet acknowledged, by message id */
  private readonly unacked = new Map<string, InventoryDigests>();

  /** for the hello */
  digests(): InventoryDigests | undefined {
    return Object.keys(this.confirmed).length > 0 ? { ...this.confirmed } : undefined;
  }

  /** The welcome named the parts the server holds as the hello's digests say (none: an older server). */
  welcomed(current: readonly string[] | undefined) {
    const held = new Set<string>(current ?? []);
    for (const kind of INVENTORY_KINDS) {
      if (!held.has(kind)) {
        delete this.confirmed[kind];
      }
    }
  }

  /**
   * The parts to send and their digests. With `skipHeld`, a part is left out when the server
   * holds it with the same digest and no unacknowledged message carries it (that message, resent
   * first, would replace what the server holds).
   */
  select(parts: Parts, skipHeld: boolean): { parts: Parts; digests: InventoryDigests } {
    const out: Parts = {};
    const digests: InventoryDigests = {};
    for (const kind of INVENTORY_KINDS) {
      const part = parts[kind];
      if (part === undefined) {
        continue;
      }
      const digest = inventoryDigest(part);
      if (skipHeld && this.confirmed[kind] === digest && !this.isPending(kind)) {
        continue;
      }
      Object.assign(out, { [kind]: part });
      digests[kind] = digest;
    }
    return { parts: out, digests };
  }

  sent(messageId: string, digests: InventoryDigests) {
    this.unacked.set(messageId, digests);
  }

  acknowledged(messageId: string) {
    const digests = this.unacked.get(messageId);
    if (digests) {
      this.unacked.delete(messageId);
      Object.assign(this.confirmed, digests);
    }
  }

  /** The server refused the message: it holds none of it (its ack, if one follows, confirms nothing). */
  refused(messageId: string) {
    this.unacked.delete(messageId);
  }

  private isPending(kind: InventoryKind): boolean {
    for (const d of this.unacked.values()) {
      if (d[kind] !== undefined) {
        return true;
      }
    }
    return false;
  }
}
