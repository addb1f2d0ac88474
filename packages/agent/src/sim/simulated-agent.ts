import type { RecordingExecutor } from '../actions/executor';
import type { Agent } from '../agent';
import type { Outbox } from '../outbox';
import type { PowerCycle } from './power';
import type { VirtualDevice } from './virtual-device';

// One machine of the simulated fleet (fleet.ts starts them; variety.ts shapes the demo's), apart
// from both so that neither imports the other.
export type SimulatedAgent = {
  device: VirtualDevice;
  agent: Agent;
  executor: RecordingExecutor;
  /** messages waiting for the server's ack */
  outbox: Outbox;
  deviceGuid: string;
  /** the secret this run was given; keep it (with deviceGuid) to pass as an identity next run */
  agentSecret: string;
  /** restart and shutdown take the machine away and bring it back (a fresh agent) */
  power?: PowerCycle;
  /** the IANA time zone of its site (UTC when not given) */
  timeZone: string;
};
