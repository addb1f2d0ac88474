import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { RunDeploymentCommand } from '@outpost/contract/agent-protocol';
import type { DeploymentJob, DeploymentJobDetail } from '@outpost/contract/deployments';
import type { PackageDetail } from '@outpost/contract/packages';
import type { z } from 'zod';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { insertDevice } from '../../../test/support/devices';
import { manualClock } from '../../../test/support/engine';
import { eventually } from '../../../test/support/live';
import { windowEngine } from '../../../test/support/window-engine';
import { deviceCommands, deviceDeployments } from '../../db/schema/index';
import type { DeploymentEngine } from './engine/deployment-engine';

// docs/product/rollouts.md#maintenance-windows, on the real database: a job "only inside
// maintenance windows" holds a device outside its window, runs one without windows at once, and
// a second engine with a manual clock (the app's own engine sees the real time, hours before the
// window) opens the window, dispatches the held row with the window's end, takes the agent's
// "window closed before step 2" back to a hold and resumes at step 2 in the next window.

type Envelope<T> = { success: boolean; data: T; error?: string };
type RunCommand = z.infer<typeof RunDeploymentCommand>;
const HOUR = 3_600_000;

describe('jobs only inside maintenance windows', () => {
  let server: TestServer;
  let admin: string;
  let tenantId: number;
  let hq: number, lon: number;
  let engine: DeploymentEngine;
  let clock: ReturnType<typeof manualClock>;
  /** the window: every day, opening three hours after the test starts, for one hour (UTC) */
  let opensAt: number;

  const call = <T>(method: string, path: string, body?: unknown) =>
    server.request<Envelope<T>>(method, path, { token: admin, body });
  const rowsOf = (jobId: number) =>
    server.database.db.select().from(deviceDeployments).where(eq(deviceDeployments.jobId, jobId));
  const commandOf = async (id: string) =>
    (await server.database.db.select().from(deviceCommands).where(eq(deviceCommands.id, id)))[0]!
      .payload as RunCommand;

  beforeAll(async () => {
    server = await startTestServer();
    const demo = (await server.seedDemo())!;
    tenantId = demo.acmeTenantId;
    [hq, lon] = demo.siteIds as [number, number];
    admin = (await server.devSignIn('admin@acme.example')).token;
    // HQ reads its windows in UTC (no zone); London has no window
    await server.database.db.execute(sql`update sites set timezone = null where id = ${hq}`);
    const start = new Date(Date.now() + 3 * HOUR);
    start.setUTCSeconds(0, 0);
    opensAt = start.getTime();
    const res = await call('POST', '/api/customer/maintenance-windows', {
      name: 'Daily',
      site_id: hq,
      days: [0, 1, 2, 3, 4, 5, 6],
      start_time: `${String(start.getUTCHours()).padStart(2, '0')}:${String(start.getUTCMinutes()).padStart(2, '0')}`,
      duration_minutes: 60,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    clock = manualClock(Date.now());
    engine = windowEngine(server, clock);
  });
  afterAll(async () => {
    await engine?.stop();
    await server?.close();
  });

  it('holds a device outside its window, runs one without windows at once, and resumes at the step the window ended before', async () => {
    const pkg = (
      await call<PackageDetail>('POST', '/api/customer/deployment-packages', { name: 'Window pkg' })
    ).body.data;
    for (const name of ['one', 'two']) {
      await call('POST', `/api/customer/deployment-packages/${pkg.id}/steps`, {
        step_name: name,
        step_type: 'CMD',
        step_details: JSON.stringify({ command: `echo ${name}` }),
      });
    }
    const inHq = await insertDevice(server, { tenantId, siteId: hq, hostname: 'win-hq-1', status: 'online' });
    const inLon = await insertDevice(server, {
      tenantId,
      siteId: lon,
      hostname: 'win-lon-1',
      status: 'online',
    });
    const created = await call<DeploymentJob>('POST', '/api/customer/deployments', {
      package_id: pkg.id,
      device_ids: [inHq.id, inLon.id],
      job_name: 'In the window',
      only_in_windows: true,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.data.only_in_windows).toBe(true);
    const jobId = created.body.data.id;
    await engine.tick();
    // the app's own engine also takes the new job (at the real time, the same decision): while it
    // holds the job's rows, this tick passes them by, so the rows are read once one engine is done
    const rows = await eventually(async () => {
      const now = await rowsOf(jobId);
      return now.every((r) => r.hold !== null || r.commandId !== null) ? now : null;
    });
    const hqRow = rows.find((r) => r.deviceId === inHq.id)!;
    const lonRow = rows.find((r) => r.deviceId === inLon.id)!;
    // the HQ device waits for its window; the London one (no window) was dispatched at once, without an end
    expect(hqRow).toMatchObject({ status: 'pending', hold: 'window', commandId: null });
    expect(hqRow.holdUntil?.getTime()).toBe(opensAt);
    expect(hqRow.holdNote).toMatch(/^Waiting for its maintenance window \(opens \w{3} \d\d:\d\d UTC\)$/);
    // the offline expiry counts from the opening
    expect(hqRow.expiresAt?.getTime()).toBe(opensAt + 24 * HOUR);
    expect(lonRow.hold).toBeNull();
    expect(lonRow.commandId).not.toBeNull();
    expect((await commandOf(lonRow.commandId!)).windowEndsAt).toBeUndefined();
    // the details page shows the hold
    const detail = (await call<DeploymentJobDetail>('GET', `/api/customer/deployments/${jobId}`)).body.data;
    expect(detail.deployments?.find((d) => d.agent_id === inHq.id)).toMatchObject({
      hold: 'window',
      hold_until: new Date(opensAt).toISOString(),
    });

    // a pass before the opening keeps it held
    await clock.advance(3 * HOUR - 120_000);
    await engine.tick();
    expect((await rowsOf(jobId)).find((r) => r.id === hqRow.id)?.hold).toBe('window');

    // the window opens: dispatched with the window's end
    await clock.advance(120_000);
    await engine.tick();
    const released = (await rowsOf(jobId)).find((r) => r.id === hqRow.id)!;
    expect(released).toMatchObject({ hold: null, holdUntil: null });
    const first = await commandOf(released.commandId!);
    expect(first.windowEndsAt).toBe(new Date(opensAt + HOUR).toISOString());
    expect(first.startAtStep).toBeUndefined();

    // the agent ran step 1 and stopped before step 2: the row waits for the next opening, unfinished
    await engine.commandResult({
      device: { id: inHq.id, tenantId, siteId: hq, deviceGuid: inHq.deviceGuid },
      commandId: released.commandId!,
      kind: 'run_deployment',
      status: 'failed',
      result: { deploymentStatus: 'cancelled', rebootRequired: false, waitingForWindowAtStep: 2 },
      error: 'Window closed before step 2',
    });
    await clock.advance(1000);
    const waiting = (await rowsOf(jobId)).find((r) => r.id === hqRow.id)!;
    expect(waiting).toMatchObject({ hold: 'window', resumeStepOrder: 2, commandId: null });
    expect(waiting.status === 'pending' || waiting.status === 'running').toBe(true);
    expect(waiting.holdUntil?.getTime()).toBe(opensAt + 24 * HOUR);
    expect(waiting.holdNote).toMatch(/^Window closed before step 2\. Waiting for its maintenance window/);
    const job = (await call<DeploymentJobDetail>('GET', `/api/customer/deployments/${jobId}`)).body.data;
    expect(job.status === 'completed' || job.status === 'failed').toBe(false);

    // the next day's window: a new run from step 2
    await clock.advance(24 * HOUR);
    await engine.tick();
    const resumed = (await rowsOf(jobId)).find((r) => r.id === hqRow.id)!;
    expect(resumed.hold).toBeNull();
    const second = await commandOf(resumed.commandId!);
    expect(second.startAtStep).toBe(2);
    expect(second.windowEndsAt).toBe(new Date(opensAt + 25 * HOUR).toISOString());
  });
});
