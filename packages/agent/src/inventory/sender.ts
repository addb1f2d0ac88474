import crypto from 'node:crypto';
import type { InventoryMessage, NotReportedPart } from '@outpost/contract/agent-protocol';
import type { InventoryKind } from '@outpost/contract/devices';
import type { DeviceBackend, InventoryParts } from '../device-backend';
import type { InventoryLedger } from './digest';

/**
 * Collects and sends an inventory. On a reconnect (`skipHeld`) the parts the server holds
 * unchanged are left out; a refresh the portal asked for sends every part it names. With a
 * backend that collects the parts independently, each is sent as soon as it is ready, and the
 * parts that could not be collected are named in a last message ("not reported: …").
 */
export class InventorySender {
  /** the last inventory said parts were not reported (the next one says so again, or clears it) */
  private hasNotReported = false;

  constructor(
    private readonly backend: DeviceBackend,
    private readonly ledger: InventoryLedger,
    private readonly sendReliable: (message: InventoryMessage) => void,
  ) {}

  async send(kind: InventoryKind | 'all', { skipHeld = false } = {}): Promise<NotReportedPart[]> {
    const { backend } = this;
    if (!backend.collectInventory) {
      const { facts, ...collected } = await backend.inventory(kind);
      this.sendParts(facts, collected, skipHeld, { isForced: true });
      return [];
    }
    // the facts go with the first part that is ready
    let facts: InventoryParts['facts'];
    const notReported = await backend.collectInventory(kind, ({ facts: f, ...collected }) => {
      if (f) {
        facts = f;
      } else if (this.sendParts(facts, collected, skipHeld)) {
        facts = undefined;
      }
    });
    // the note of what is missing, or that nothing is missing any more
    const isNoteChanged = notReported.length > 0 || this.hasNotReported;
    if (facts || isNoteChanged) {
      this.sendParts(facts, {}, skipHeld, { isForced: true, ...(isNoteChanged && { notReported }) });
    }
    this.hasNotReported = notReported.length > 0;
    return notReported;
  }

  /** Sends the parts the server does not hold; false when there was nothing to send. */
  private sendParts(
    facts: InventoryParts['facts'],
    collected: Omit<InventoryParts, 'facts'>,
    skipHeld: boolean,
    { isForced = false, notReported }: { isForced?: boolean; notReported?: NotReportedPart[] } = {},
  ): boolean {
    const { parts, digests } = this.ledger.select(collected, skipHeld);
    if (!isForced && !facts && Object.keys(parts).length === 0) {
      return false;
    }
    const messageId = crypto.randomUUID();
    this.ledger.sent(messageId, digests);
    this.sendReliable({
      type: 'inventory',
      messageId,
      collectedAt: new Date().toISOString(),
      ...(facts && { facts }),
      ...parts,
      digests,
      ...(notReported && { notReported }),
    });
    return true;
  }
}
