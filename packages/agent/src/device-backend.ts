import type { InventoryKind } from '@outpost/contract/devices';
import type {
  HelloMessage,
  InventoryMessage,
  NotReportedPart,
  UserSession,
} from '@outpost/contract/agent-protocol';

// Where an agent's facts, inventory and sessions come from: the real machine
// (system-backend.ts) or a simulated one (sim/virtual-device.ts).

export type InventoryParts = Pick<
  InventoryMessage,
  'facts' | 'hardware' | 'network' | 'software' | 'services'
>;

export type DeviceBackend = {
  hello(): Promise<Omit<HelloMessage, 'type' | 'protocolVersion'>>;
  inventory(kind: InventoryKind | 'all'): Promise<InventoryParts>;
  /**
   * Collects the parts independently and hands each to `send` as soon as it is ready (the facts
   * first, alone); resolves with the parts it could not collect, and why (optional: without it
   * the agent sends what inventory() gives in one message).
   */
  collectInventory?(
    kind: InventoryKind | 'all',
    send: (parts: InventoryParts) => void,
  ): Promise<NotReportedPart[]>;
  /** user sessions open now; polled to produce login/logout events (optional) */
  sessions?(): Promise<UserSession[]>;
};
