import type {
  ActivityMessage,
  FaultMessage,
  HelloMessage,
  InventoryMessage,
} from '@outpost/contract/agent-protocol';
import type { InventoryKind } from '@outpost/contract/devices';
import type { DeviceUpdatePayload } from '@outpost/contract/live';

// What the agent sockets need of the device rows (docs/architecture.md#live-layer-and-agents "Presence"), as a
// port: the devices module owns the table and implements it (modules/devices/
// device-state.service.ts), wired in app.ts, so live/ stays transport and never imports a
// module. Each change is handed back for the hub to publish as a device_update.

export type DeviceRef = { id: number; tenantId: number; siteId: number | null; deviceGuid: string };

export type DeviceChange = { ref: DeviceRef; update: DeviceUpdatePayload; statusChanged: boolean };

export type ConnectedChange = DeviceChange & {
  /** the welcome's inventoryCurrent: parts the agent need not resend while they are unchanged */
  inventoryCurrent: InventoryKind[];
};

export type DeviceState = {
  /** hello: the device is connected through `connectionId`; null for a removed device */
  markConnected(
    deviceId: number,
    connectionId: string,
    hello: HelloMessage,
    ip: string,
  ): Promise<ConnectedChange | null>;
  /** the connection ended (after the grace period): offline, unless another connection took over */
  markDisconnected(deviceId: number, connectionId: string): Promise<DeviceChange | null>;
  /** marks offline the devices no instance heard from in `staleAfterMs`, a batch at a time */
  sweepStale(staleAfterMs: number, onBatch: (changes: DeviceChange[]) => Promise<void>): Promise<number>;
  /** heartbeats, batched */
  touchLastSeen(deviceIds: number[]): Promise<void>;
  applyFault(deviceId: number, fault: FaultMessage): Promise<DeviceChange | null>;
  applyActivity(deviceId: number, message: ActivityMessage): Promise<DeviceChange | null>;
  applyInventory(device: DeviceRef, inv: InventoryMessage): Promise<DeviceChange | null>;
};
