import type { Executor } from '../../lib/db';
import { insertEnrolledDevice, updateReEnrolledDevice } from './device-enrolment.queries';
import type { EnrolledDeviceValues } from './device-enrolment.queries';
import { lockDeviceSite, shiftDevicesSoftware } from './software-counts.queries';

// The device rows agent enrolment writes (modules/agents/agents.service.ts): the devices module
// owns the table, the agents module decides (token, tenant limit, proof of a reinstall) and calls
// these inside its own transaction. Not authorised here: the enrolment token was checked by the caller.

/** A new device enrolled with a token; its id and guid. */
export function createEnrolledDevice(tx: Executor, values: EnrolledDeviceValues) {
  return insertEnrolledDevice(tx, values);
}

/**
 * A reinstalled agent that proved its guid and secret: the existing record, refreshed. A new site
 * moves the device's software counts with it (docs/product/device-sets.md#fleet-software).
 */
export async function refreshReEnrolledDevice(
  tx: Executor,
  id: number,
  values: Partial<EnrolledDeviceValues>,
): Promise<void> {
  const before = values.siteId === undefined ? null : await lockDeviceSite(tx, id);
  const moves = before !== null && (values.siteId ?? null) !== before.siteId;
  if (moves) {
    await shiftDevicesSoftware(tx, before.tenantId, [id], -1);
  }
  await updateReEnrolledDevice(tx, id, values);
  if (moves) {
    await shiftDevicesSoftware(tx, before.tenantId, [id], 1);
  }
}
