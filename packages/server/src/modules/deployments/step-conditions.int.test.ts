import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { CommandMessage } from '@outpost/contract/agent-protocol';
import type { DeploymentJob, DeploymentJobDetail, StepLogsResponse } from '@outpost/contract/deployments';
import type { ApiErrorBody } from '@outpost/contract/envelope';
import type { PackageDetail, PackageExportDocument, PackageStep } from '@outpost/contract/packages';
import { conditionMessages } from '@outpost/contract/step-conditions';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { devices } from '../../db/schema/index';
import { createEnrollmentToken, enroll, eventually, facts, onlineAgent } from '../../../test/support/live';

// docs/product/rollouts.md#step-conditions: a step's conditions are checked when it is saved (a
// 400 naming the step), kept with the step, copied into the job's steps the agent gets; a step the
// agent skipped has a log with status skipped and the reason as its note, and the device's part
// still completes.

type Envelope<T> = { success: true; data: T };
const PACKAGES = '/api/customer/deployment-packages';
const API = '/api/customer/deployments';

describe('step conditions', () => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer({ env: { DEPLOYMENT_SCHEDULER_INTERVAL_MS: '100' } });
    await server.seedDemo();
    token = (await server.devSignIn('admin@acme.example')).token;
  });
  afterAll(async () => server?.close());

  const call = <T>(method: string, path: string, body?: unknown) =>
    server.request<T>(method, path, { token, body });
  const cmd = (name: string, conditions?: unknown) => ({
    step_name: name,
    step_type: 'CMD',
    step_details: JSON.stringify({ command: `echo ${name}` }),
    ...(conditions !== undefined && { conditions }),
  });

  async function newPackage(name: string) {
    const res = await call<Envelope<PackageDetail>>('POST', PACKAGES, { name, target_os: 'windows' });
    expect(res.status).toBe(200);
    return res.body.data.id;
  }

  it('refuses invalid conditions with a 400 naming the step and the condition', async () => {
    const id = await newPackage('Conditions refused');
    const bad = await call<ApiErrorBody>(
      'POST',
      `${PACKAGES}/${id}/steps`,
      cmd('Install app', [
        { kind: 'path', path: 'C:\\App', operator: 'exists' },
        { kind: 'exit_code', step_order: 1, operator: 'equals', codes: [0, 1] },
      ]),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe(`Step "Install app", condition 2: ${conditionMessages.oneCode}`);
    const unknown = await call<ApiErrorBody>(
      'POST',
      `${PACKAGES}/${id}/steps`,
      cmd('Other', [{ kind: 'moon' }]),
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe(`Step "Other", condition 1: ${conditionMessages.unknownKind}`);
    const many = Array.from({ length: 11 }, () => ({ kind: 'process', name: 'a.exe', operator: 'running' }));
    const tooMany = await call<ApiErrorBody>('POST', `${PACKAGES}/${id}/steps`, cmd('Third', many));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toBe(`Step "Third": ${conditionMessages.tooMany}`);
    const pkg = await call<Envelope<PackageDetail>>('GET', `${PACKAGES}/${id}`);
    expect(pkg.body.data.steps).toEqual([]);
  });

  it('keeps the conditions with the step, in its export and in the job the agent runs; a skipped step completes', async () => {
    const id = await newPackage('Conditions kept');
    const condition = { kind: 'path', path: '%ProgramFiles%\\App\\app.exe', operator: 'not_exists' };
    const first = await call<Envelope<PackageStep>>('POST', `${PACKAGES}/${id}/steps`, cmd('Runs'));
    expect(first.body.data.conditions).toEqual([]);
    const added = await call<Envelope<PackageStep>>(
      'POST',
      `${PACKAGES}/${id}/steps`,
      cmd('Maybe', [condition]),
    );
    expect(added.status).toBe(200);
    expect(added.body.data.conditions).toEqual([condition]);
    const changed = await call<Envelope<PackageStep>>(
      'PUT',
      `${PACKAGES}/${id}/steps/${added.body.data.id}`,
      cmd('Maybe', [condition, { kind: 'exit_code', step_order: 1, operator: 'in', codes: [0, 3010] }]),
    );
    expect(changed.body.data.conditions).toHaveLength(2);
    const doc = await call<PackageExportDocument>('GET', `${PACKAGES}/${id}/export`);
    expect(doc.body.steps[1]?.conditions).toHaveLength(2);

    const enrollToken = (await createEnrollmentToken(server, token)).token;
    const creds = (await enroll(server, enrollToken, facts({ hostname: 'cond-host', machineId: 'mid-cond' })))
      .body.data;
    const agent = await onlineAgent(server.url, creds, { hostname: 'cond-host' });
    const [device] = await server.database.db
      .select()
      .from(devices)
      .where(eq(devices.deviceGuid, creds.device_guid));
    const job = await call<Envelope<DeploymentJob>>('POST', API, {
      package_id: id,
      device_ids: [device!.id],
      job_name: 'Conditions job',
    });
    expect(job.status).toBe(200);
    const command = await agent.waitFor(
      'command',
      (m: CommandMessage) => m.command.kind === 'run_deployment',
    );
    const steps = command.command.kind === 'run_deployment' ? command.command.steps : [];
    expect(steps[0]?.conditions).toBeUndefined();
    expect(steps[1]?.conditions).toEqual([
      condition,
      { kind: 'exit_code', step_order: 1, operator: 'in', codes: [0, 3010] },
    ]);

    const at = new Date().toISOString();
    const progress = [
      { seq: 1, stepOrder: 1, status: 'running', attempt: 1, startedAt: at },
      { seq: 2, stepOrder: 1, status: 'completed', attempt: 1, exitCode: 0, startedAt: at, completedAt: at },
      {
        seq: 3,
        stepOrder: 2,
        status: 'skipped',
        attempt: 1,
        exitCode: null,
        errorMessage: null,
        startedAt: at,
        completedAt: at,
        note: 'Skipped: C:\\Program Files\\App\\app.exe exists',
      },
    ];
    for (const [i, m] of progress.entries()) {
      agent.send({
        type: 'step_progress',
        messageId: `cond-${i}`,
        commandId: command.commandId,
        ...m,
      } as never);
      await agent.waitFor('ack', (a) => a.messageId === `cond-${i}`);
    }
    agent.send({
      type: 'command_result',
      messageId: 'cond-result',
      commandId: command.commandId,
      status: 'completed',
      result: { deploymentStatus: 'completed', rebootRequired: false },
      error: null,
    });
    await agent.waitFor('ack', (a) => a.messageId === 'cond-result');

    const done = await eventually(async () => {
      const d = (await call<Envelope<DeploymentJobDetail>>('GET', `${API}/${job.body.data.id}`)).body.data;
      return d.status === 'completed' ? d : null;
    });
    expect(done).toMatchObject({ completed_devices: 1, failed_devices: 0 });
    expect(done.deployments[0]).toMatchObject({ status: 'completed', error_message: null });
    const logs = await call<Envelope<StepLogsResponse>>(
      'GET',
      `${API}/device-deployment/${done.deployments[0]!.id}/logs`,
    );
    expect(logs.body.data.logs.map((l) => [l.step_order, l.status, l.note])).toEqual([
      [1, 'completed', null],
      [2, 'skipped', 'Skipped: C:\\Program Files\\App\\app.exe exists'],
    ]);
    await agent.close(1000);
  });
});
