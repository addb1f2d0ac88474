import { eq, sql } from 'drizzle-orm';
import { devices } from '../../db/schema/index';
import { firstOrThrow } from '../../lib/db';
import type { Executor } from '../../lib/db';

// The device row an enrolment writes (device-enrolment.service.ts), in the enrolment's transaction.

export type EnrolledDeviceValues = typeof devices.$inferInsert;

export async function insertEnrolledDevice(tx: Executor, values: EnrolledDeviceValues) {
  const rows = await tx
    .insert(devices)
    .values(values)
    .returning({ id: devices.id, deviceGuid: devices.deviceGuid });
  return firstOrThrow(rows, 'insert device');
}

export async function updateReEnrolledDevice(
  tx: Executor,
  id: number,
  values: Partial<EnrolledDeviceValues>,
): Promise<void> {
  await tx
    .update(devices)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(devices.id, id));
}
