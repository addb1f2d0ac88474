import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import type { CommandMessage } from '@outpost/contract/agent-protocol';
import { customFieldMessages } from '@outpost/contract/custom-fields';
import type { DeviceFieldsResponse } from '@outpost/contract/custom-fields';
import type { DeploymentJob, DeploymentJobDetail } from '@outpost/contract/deployments';
import type { PackageDetail } from '@outpost/contract/packages';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { auditLogs, deploymentStepLogs, devices } from '../../db/schema/index';
import { createEnrollmentToken, enroll, eventually, facts, onlineAgent } from '../../../test/support/live';

// docs/product/device-sets.md#custom-fields, "Store output in custom field": a step with the
// option that completes on a device writes its output into the device's field; output that does
// not fit the field is noted in the step's log and the step still succeeds.

type Envelope<T> = { success: true; data: T; error?: string };

describe('store output in custom field', () => {
  let server: TestServer;
  let admin: string;
  let enrollToken: string;

  const call = <T>(method: string, path: string, body?: unknown) =>
    server.request<Envelope<T>>(method, path, { token: admin, body });
  const cmdStep = (name: string, field: string) => ({
    step_name: name,
    step_type: 'CMD',
    step_details: JSON.stringify({ command: 'ver', store_output_field: field }),
  });

  beforeAll(async () => {
    server = await startTestServer({ env: { DEPLOYMENT_SCHEDULER_INTERVAL_MS: '100' } });
    await server.seedDemo();
    admin = (await server.devSignIn('admin@acme.example')).token;
    enrollToken = (await createEnrollmentToken(server, admin)).token;
    for (const [key, type] of [
      ['os_build', 'text'],
      ['disk_gb', 'number'],
      ['last_error', 'text'],
    ] as const) {
      const res = await call('POST', '/api/customer/custom-fields', { key, name: key, field_type: type });
      expect(res.status).toBe(200);
    }
  });
  afterAll(async () => server?.close());

  it('refuses a step naming a field the tenant does not have', async () => {
    const pkg = await call<PackageDetail>('POST', '/api/customer/deployment-packages', {
      name: 'Unknown field',
    });
    const res = await call(
      'POST',
      `/api/customer/deployment-packages/${pkg.body.data.id}/steps`,
      cmdStep('x', 'nope'),
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(`Store output in custom field: ${customFieldMessages.unknownField('nope')}`);
  });

  it("writes a completed step's trimmed output into the device's field, and notes output that does not fit", async () => {
    const creds = (
      await enroll(server, enrollToken, facts({ hostname: 'pc-output', machineId: 'mid-pc-output' }))
    ).body.data;
    const agent = await onlineAgent(server.url, creds, { hostname: 'pc-output' });
    const [device] = await server.database.db
      .select()
      .from(devices)
      .where(eq(devices.deviceGuid, creds.device_guid));
    const pkg = await call<PackageDetail>('POST', '/api/customer/deployment-packages', {
      name: 'Output to fields',
    });
    for (const step of [
      cmdStep('build', 'os_build'),
      cmdStep('disk', 'disk_gb'),
      cmdStep('fails', 'last_error'),
    ]) {
      expect(
        (await call('POST', `/api/customer/deployment-packages/${pkg.body.data.id}/steps`, step)).status,
      ).toBe(200);
    }
    const job = await call<DeploymentJob>('POST', '/api/customer/deployments', {
      package_id: pkg.body.data.id,
      device_ids: [device!.id],
      job_name: 'Output job',
    });
    expect(job.status).toBe(200);
    const cmd = await agent.waitFor('command', (m: CommandMessage) => m.command.kind === 'run_deployment');
    const run = cmd.command.kind === 'run_deployment' ? cmd.command : null;
    // the agent receives the option with the step (it ignores it)
    expect(run?.steps[0]?.stepDetails.store_output_field).toBe('os_build');
    let seq = 0;
    const progress = async (m: Record<string, unknown>) => {
      const messageId = `out-${++seq}`;
      agent.send({ type: 'step_progress', messageId, commandId: cmd.commandId, seq, ...m } as never);
      await agent.waitFor('ack', (a) => a.messageId === messageId);
    };
    const at = new Date().toISOString();
    await progress({ stepOrder: 1, status: 'running', stdout: '\r\nMicrosoft Windows ', startedAt: at });
    await progress({
      stepOrder: 1,
      status: 'completed',
      exitCode: 0,
      stdout: '[Version 10.0.22631]\r\n\r\n',
      completedAt: at,
    });
    await progress({
      stepOrder: 2,
      status: 'completed',
      exitCode: 0,
      stdout: 'about 512 GB\n',
      startedAt: at,
      completedAt: at,
    });
    await progress({
      stepOrder: 3,
      status: 'failed',
      exitCode: 1,
      stdout: 'Access denied\n',
      startedAt: at,
      completedAt: at,
    });

    const fields = await eventually(async () => {
      const res = await call<DeviceFieldsResponse>('GET', `/api/customer/devices/${device!.id}/fields`);
      const build = res.body.data.fields.find((f) => f.key === 'os_build');
      return build?.value ? res.body.data.fields : null;
    });
    expect(fields.map((f) => [f.key, f.value])).toEqual([
      ['os_build', 'Microsoft Windows [Version 10.0.22631]'],
      ['disk_gb', null],
      // a failed step stores nothing
      ['last_error', null],
    ]);

    const detail = await call<DeploymentJobDetail>('GET', `/api/customer/deployments/${job.body.data.id}`);
    const logs = await server.database.db
      .select()
      .from(deploymentStepLogs)
      .where(eq(deploymentStepLogs.deviceDeploymentId, detail.body.data.deployments[0]!.id));
    const byStep = new Map(logs.map((l) => [l.stepOrder, l]));
    expect(byStep.get(1)).toMatchObject({ status: 'completed', output: "Output stored in field 'os_build'" });
    expect(byStep.get(2)).toMatchObject({
      status: 'completed',
      output: customFieldMessages.outputNotStored('disk_gb', customFieldMessages.notANumber),
    });
    expect(byStep.get(3)?.output ?? null).toBeNull();

    const [audit] = await server.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'Set Custom Fields'), eq(auditLogs.resourceId, String(device!.id))))
      .orderBy(desc(auditLogs.id))
      .limit(1);
    expect(audit).toMatchObject({ userId: null, userName: "Deployment 'Output job', step 1" });
    await agent.close();
  });
});
