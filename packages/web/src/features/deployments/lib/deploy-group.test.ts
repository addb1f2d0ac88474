import { describe, expect, it } from 'vitest';
import type { DeploymentCreateBody, DeploymentJob } from '@outpost/contract/deployments';
import { deploymentMessages as messages } from '@outpost/contract/messages';
import { SELECT_GROUP, createJobs, deployProblems, deploySummary } from './deploy-form';

// Deploying to a device group (docs/product/device-sets.md#groups "Deploying to a group"): the
// group replaces the device rules, and the job is sent with group_id instead of device_ids.

const now = { timing: 'now' as const, date: '', time: '' };

describe('deploying to a group', () => {
  it('asks for a group instead of devices, and skips the offline-device rule', () => {
    const problems = deployProblems({
      packageCount: 1,
      devices: [],
      jobName: 'Job',
      group: { groupId: null },
    });
    expect(problems).toEqual([{ field: 'devices', message: SELECT_GROUP }]);
    expect(
      deployProblems({
        packageCount: 1,
        devices: [{ status: 'offline' }],
        jobName: 'Job',
        group: { groupId: 4 },
      }),
    ).toEqual([]);
    expect(deployProblems({ packageCount: 1, devices: [], jobName: 'Job' })[0]?.message).toBe(
      messages.selectDevice,
    );
  });

  it('sends group_id and no devices, and the summary names the group', async () => {
    const sent: DeploymentCreateBody[] = [];
    const create = (body: DeploymentCreateBody) => {
      sent.push(body);
      return Promise.resolve({ id: 1, name: body.job_name } as DeploymentJob);
    };
    const outcome = await createJobs(create, [{ id: 9, name: 'Pkg' }], {
      deviceIds: [1, 2],
      groupId: 4,
      jobName: 'Job',
      description: '',
      scheduledAt: null,
    });
    expect(outcome.kind).toBe('success');
    expect(sent[0]).toMatchObject({ package_id: 9, group_id: 4 });
    expect(sent[0]).not.toHaveProperty('device_ids');
    expect(deploySummary(0, now, 'Ring 1')).toBe('Deploying to the online devices of Ring 1');
    expect(deploySummary(2, now)).toBe('Deploying to 2 device(s)');
  });
});
