import { describe, expect, it } from 'vitest';
import type { StepProgressMessage } from '@outpost/contract/agent-protocol';
import { job } from '../../../../test/support/engine';
import { outputFieldOf } from './step-output';

// docs/product/device-sets.md#custom-fields, "Store output in custom field": which reports store
// a step's output, and where.

const step = (stepOrder: number, details: Record<string, unknown>) => ({
  stepOrder,
  stepName: `step ${stepOrder}`,
  stepType: 'CMD',
  stepDetails: details,
  timeoutSeconds: 60,
  retryCount: 0,
  failDeploymentOnError: true,
});
const report = (stepOrder: number, status: StepProgressMessage['status']) =>
  ({
    type: 'step_progress',
    messageId: 'm',
    commandId: 'c',
    seq: 1,
    stepOrder,
    status,
  }) as StepProgressMessage;

describe('outputFieldOf', () => {
  const withSteps = job({
    steps: [
      step(1, { command: 'ver', store_output_field: ' os_build ' }),
      step(2, { command: 'x' }),
      step(3, { store_output_field: '' }),
    ],
  });

  it('names the field of a completed step that has the option', () => {
    expect(outputFieldOf({ m: report(1, 'completed'), job: withSteps })).toBe('os_build');
  });

  it('stores nothing for a running, failed or cancelled step, or a step without the option', () => {
    for (const status of ['running', 'failed', 'cancelled'] as const) {
      expect(outputFieldOf({ m: report(1, status), job: withSteps })).toBeNull();
    }
    expect(outputFieldOf({ m: report(2, 'completed'), job: withSteps })).toBeNull();
    expect(outputFieldOf({ m: report(3, 'completed'), job: withSteps })).toBeNull();
    expect(outputFieldOf({ m: report(9, 'completed'), job: withSteps })).toBeNull();
  });
});
