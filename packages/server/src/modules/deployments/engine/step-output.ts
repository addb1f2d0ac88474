import type { FastifyBaseLogger } from 'fastify';
import type { StepProgressMessage } from '@outpost/contract/agent-protocol';
import type { Db } from '../../../db/client';
import type { JobRow, WrittenStepLog } from '../deployments.queries';
import type { DeviceDeploymentState } from './device-rows.queries';
import { appendStepLogNote, readStepLogStdout } from './step-output.queries';

// docs/product/device-sets.md#custom-fields, "Store output in custom field": when a step with
// the option completes on a device, its output goes into that device's field through the port
// services.ts passes (the custom-fields service; the engine never writes that table). Output that
// does not fit the field is not stored, the step's log says why, and the step still succeeds
// (docs/decisions/2026-11-26-step-output-fields.md).

/** The step option naming the field (contract/step-definitions.ts). */
export const STORE_OUTPUT_OPTION = 'store_output_field';

/** What the custom-fields service answers for one output. */
export type StoreOutputResult = { stored: true; value: string } | { stored: false; note: string };

/** The port: writes one device's field from a step's output, or says why not. */
export type StepOutputStore = (input: {
  tenantId: number;
  deviceId: number;
  fieldKey: string;
  output: string;
  source: string;
}) => Promise<StoreOutputResult>;

type Applied = { m: StepProgressMessage; job: JobRow; dd: DeviceDeploymentState; log: WrittenStepLog };

/** The field a completed attempt's output goes to; null when its step has no such option. */
export function outputFieldOf(a: Pick<Applied, 'm' | 'job'>): string | null {
  if (a.m.status !== 'completed') {
    return null;
  }
  const step = a.job.steps.find((s) => s.stepOrder === a.m.stepOrder);
  const key = step?.stepDetails[STORE_OUTPUT_OPTION];
  return typeof key === 'string' && key.trim() !== '' ? key.trim() : null;
}

export function createStepOutputs(deps: { db: Db; store?: StepOutputStore; log: FastifyBaseLogger }) {
  const { db, store, log } = deps;
  return async function storeOutputs(applied: Applied[]): Promise<void> {
    if (!store) {
      return;
    }
    for (const a of applied) {
      const fieldKey = outputFieldOf(a);
      if (fieldKey === null || a.dd.deviceId === null) {
        continue;
      }
      try {
        const output = (await readStepLogStdout(db, a.log.id)) ?? '';
        const result = await store({
          tenantId: a.job.tenantId,
          deviceId: a.dd.deviceId,
          fieldKey,
          output,
          source: `Deployment '${a.job.name}', step ${a.m.stepOrder}`,
        });
        await appendStepLogNote(
          db,
          a.log.id,
          result.stored ? `Output stored in field '${fieldKey}'` : result.note,
        );
      } catch (err) {
        // the step's own result stands; the field keeps its value
        log.warn({ err, jobId: a.job.id, stepOrder: a.m.stepOrder, fieldKey }, 'step output not stored');
      }
    }
  };
}
