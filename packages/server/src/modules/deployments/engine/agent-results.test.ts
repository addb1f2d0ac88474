import { describe, expect, it } from 'vitest';
import { deploymentMessages as messages } from '@outpost/contract/messages';
import type { CommandResultEnd } from './agent-results.queries';
import { createResultWriter, resultEnd } from './agent-results';
import type { ResultInput } from './agent-results';
import type { DeviceRowUpdate } from './job-updates';
import { fakeTx } from '../../../../test/support/engine';

// run_deployment results: how each ends its device row, written in batches, the rows' jobs
// marked for settling.

const base: ResultInput = { deviceId: 1, commandId: 'c-1', status: 'completed', result: null, error: null };

describe('resultEnd', () => {
  it('takes the agent’s deployment status and reboot flag when the result says them', () => {
    const end = resultEnd(
      { ...base, result: { deploymentStatus: 'completed', rebootRequired: true, steps: [] } },
      24,
    );
    expect(end).toMatchObject({ status: 'completed', error: null, rebootRequired: true });
  });

  it('falls back to the command’s status, with the agent’s error or the catalogue’s words', () => {
    expect(resultEnd(base, 24)).toMatchObject({ status: 'completed', error: null, rebootRequired: false });
    expect(resultEnd({ ...base, status: 'failed', error: 'boom' }, 24)).toMatchObject({
      status: 'failed',
      error: 'boom',
      errorIfPending: 'boom',
    });
    expect(resultEnd({ ...base, status: 'failed' }, 24).error).toBe(messages.agentCannotDeploy);
  });

  it('reads an expired command as a device that never came online (while its row is pending)', () => {
    const end = resultEnd(
      { ...base, status: 'failed', error: 'The command expired before the device ran it' },
      24,
    );
    expect(end.errorIfPending).toBe(messages.deviceNeverOnline(24));
    expect(end.error).toBe('The command expired before the device ran it');
  });
});

describe('the result writer', () => {
  it('ends run_deployment rows only, and marks their jobs for settling', async () => {
    const written: CommandResultEnd[][] = [];
    const marked: { jobId: number; dd?: DeviceRowUpdate }[] = [];
    const writer = createResultWriter({
      db: fakeTx,
      expiryHours: 24,
      settler: { markUnsettled: (jobId, dd) => marked.push({ jobId, dd }) },
      queries: {
        endDeviceDeploymentsOfCommands: (_db, ends) => {
          written.push(ends);
          return Promise.resolve(
            ends.map((e, i) => ({
              id: 10 + i,
              jobId: 3,
              deviceId: e.deviceId,
              siteId: null,
              commandId: e.commandId,
              deviceGuid: null,
              status: e.status,
              progressSeq: 0,
              errorMessage: e.error,
            })),
          );
        },
      },
    });
    const device = { id: 1, tenantId: 7, siteId: null, deviceGuid: 'g' };
    await writer.commandResult({ ...base, device, kind: 'service_control' });
    expect(written).toEqual([]);
    await writer.commandResult({ ...base, device, kind: 'run_deployment' });
    expect(written.map((w) => w.map((e) => [e.deviceId, e.commandId, e.status]))).toEqual([
      [[1, 'c-1', 'completed']],
    ]);
    expect(marked.map((m) => [m.jobId, m.dd?.id])).toEqual([[3, 10]]);
  });
});
