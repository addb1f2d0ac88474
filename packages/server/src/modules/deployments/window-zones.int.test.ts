import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { RunDeploymentCommand } from '@outpost/contract/agent-protocol';
import type { DeploymentJob } from '@outpost/contract/deployments';
import type { MaintenanceWindow } from '@outpost/contract/maintenance-windows';
import type { PackageDetail } from '@outpost/contract/packages';
import type { z } from 'zod';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { insertDevice } from '../../../test/support/devices';
import { eventually } from '../../../test/support/live';
import { manualClock } from '../../../test/support/engine';
import { windowEngine } from '../../../test/support/window-engine';
import { deviceCommands, deviceDeployments } from '../../db/schema/index';
import type { DeploymentEngine } from './engine/deployment-engine';

// docs/product/rollouts.md#maintenance-windows on the real database, in two time zones: a
// Saturday 23:00 + 3 h window read in Berlin and in New York across midnight, and a Sunday 02:30
// window on the night Berlin's clocks spring forward. A second engine with a manual clock set to
// January and March 2027 releases the held rows; the windows are created on a day that cannot be
// open now (so whichever engine dispatches the jobs holds their rows) and moved to the scenario's
// day afterwards, since a release reads the windows again.

type Envelope<T> = { success: boolean; data: T; error?: string };
type RunCommand = z.infer<typeof RunDeploymentCommand>;
const at = (text: string) => Date.parse(text);

describe('maintenance windows in two time zones', () => {
  let server: TestServer;
  let admin: string;
  let tenantId: number;
  let berlin: number, newYork: number;
  let engine: DeploymentEngine;
  // a week before the first scenario: whichever engine holds a row, its hold ends before then
  const clock = manualClock(at('2027-01-09T12:00:00Z'));
  let pkgId: number;
  /** a weekday whose 23:00 + 3 h window is closed now in any zone: three days after today (UTC) */
  const safeDay = (new Date().getUTCDay() + 3) % 7;
  const windowIds: Record<'berlin' | 'newYork', number> = { berlin: 0, newYork: 0 };

  const call = <T>(method: string, path: string, body?: unknown) =>
    server.request<Envelope<T>>(method, path, { token: admin, body });
  const rowOf = async (jobId: number, deviceId: number) =>
    (
      await server.database.db.select().from(deviceDeployments).where(eq(deviceDeployments.jobId, jobId))
    ).find((r) => r.deviceId === deviceId)!;
  const commandOf = async (id: string) =>
    (await server.database.db.select().from(deviceCommands).where(eq(deviceCommands.id, id)))[0]!
      .payload as RunCommand;
  const setWindow = async (which: 'berlin' | 'newYork', days: number[], start: string, minutes: number) => {
    const res = await call<MaintenanceWindow>(
      'PUT',
      `/api/customer/maintenance-windows/${windowIds[which]}`,
      {
        name: which,
        site_id: which === 'berlin' ? berlin : newYork,
        days,
        start_time: start,
        duration_minutes: minutes,
      },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  async function heldJob(name: string, deviceIds: number[]) {
    const res = await call<DeploymentJob>('POST', '/api/customer/deployments', {
      package_id: pkgId,
      device_ids: deviceIds,
      job_name: name,
      only_in_windows: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // the app's own engine (the real time) is kicked by the creation too and may hold the rows
    // first; either way they end held, once its transaction is in
    for (const id of deviceIds) {
      await eventually(async () => {
        await engine.tick();
        return (await rowOf(res.body.data.id, id)).hold === 'window';
      });
      expect(await rowOf(res.body.data.id, id)).toMatchObject({ hold: 'window', commandId: null });
    }
    return res.body.data.id;
  }

  beforeAll(async () => {
    server = await startTestServer();
    const demo = (await server.seedDemo())!;
    tenantId = demo.acmeTenantId;
    [berlin, newYork] = demo.siteIds as [number, number];
    admin = (await server.devSignIn('admin@acme.example')).token;
    await server.database.db.execute(sql`update sites set timezone = 'Europe/Berlin' where id = ${berlin}`);
    await server.database.db.execute(
      sql`update sites set timezone = 'America/New_York' where id = ${newYork}`,
    );
    for (const which of ['berlin', 'newYork'] as const) {
      const res = await call<MaintenanceWindow>('POST', '/api/customer/maintenance-windows', {
        name: which,
        site_id: which === 'berlin' ? berlin : newYork,
        days: [safeDay],
        start_time: '23:00',
        duration_minutes: 180,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      windowIds[which] = res.body.data.id;
    }
    const pkg = (await call<PackageDetail>('POST', '/api/customer/deployment-packages', { name: 'Zones' }))
      .body.data;
    pkgId = pkg.id;
    await call('POST', `/api/customer/deployment-packages/${pkgId}/steps`, {
      step_name: 'one',
      step_type: 'CMD',
      step_details: JSON.stringify({ command: 'echo one' }),
    });
    engine = windowEngine(server, clock);
  });
  afterAll(async () => {
    await engine?.stop();
    await server?.close();
  });

  it('reads a Saturday 23:00 + 3 h window across midnight in each site’s zone', async () => {
    const inBerlin = await insertDevice(server, {
      tenantId,
      siteId: berlin,
      hostname: 'zone-ber',
      status: 'online',
    });
    const inNewYork = await insertDevice(server, {
      tenantId,
      siteId: newYork,
      hostname: 'zone-nyc',
      status: 'online',
    });
    const jobId = await heldJob('Across midnight', [inBerlin.id, inNewYork.id]);
    await setWindow('berlin', [6], '23:00', 180);
    await setWindow('newYork', [6], '23:00', 180);

    // Sunday 2027-01-17 00:30 UTC: 01:30 in Berlin (inside, until 02:00 CET = 01:00 UTC); 19:30
    // on Saturday in New York (outside: opens 23:00 EST = 04:00 UTC)
    await clock.advance(at('2027-01-17T00:30:00Z') - clock.now());
    await engine.tick();
    const ber = await rowOf(jobId, inBerlin.id);
    expect(ber.hold).toBeNull();
    expect((await commandOf(ber.commandId!)).windowEndsAt).toBe('2027-01-17T01:00:00.000Z');
    const nyc = await rowOf(jobId, inNewYork.id);
    expect(nyc).toMatchObject({
      hold: 'window',
      commandId: null,
      holdNote: 'Waiting for its maintenance window (opens Sat 23:00 America/New_York)',
    });
    expect(nyc.holdUntil?.toISOString()).toBe('2027-01-17T04:00:00.000Z');

    await clock.advance(at('2027-01-17T03:59:00Z') - clock.now());
    await engine.tick();
    expect((await rowOf(jobId, inNewYork.id)).hold).toBe('window');
    await clock.advance(60_000);
    await engine.tick();
    const opened = await rowOf(jobId, inNewYork.id);
    expect(opened.hold).toBeNull();
    // 23:00 EST + 3 h = 02:00 EST = 07:00 UTC
    expect((await commandOf(opened.commandId!)).windowEndsAt).toBe('2027-01-17T07:00:00.000Z');
  });

  it('opens a Sunday 02:30 Berlin window at 03:00 on the night the clocks spring forward', async () => {
    await setWindow('berlin', [safeDay], '23:00', 180);
    const device = await insertDevice(server, {
      tenantId,
      siteId: berlin,
      hostname: 'zone-dst',
      status: 'online',
    });
    const jobId = await heldJob('Spring forward', [device.id]);
    await setWindow('berlin', [0], '02:30', 60);

    // Saturday 2027-03-27 12:00 UTC; on Sunday 2027-03-28 Berlin goes from 02:00 CET to 03:00 CEST,
    // so 02:30 does not exist: the window opens at 03:00 CEST = 01:00 UTC
    await clock.advance(at('2027-03-27T12:00:00Z') - clock.now());
    await engine.tick();
    const held = await rowOf(jobId, device.id);
    expect(held.holdUntil?.toISOString()).toBe('2027-03-28T01:00:00.000Z');
    expect(held.holdNote).toBe('Waiting for its maintenance window (opens Sun 03:00 Europe/Berlin)');

    await clock.advance(at('2027-03-28T00:59:00Z') - clock.now());
    await engine.tick();
    expect((await rowOf(jobId, device.id)).hold).toBe('window');
    await clock.advance(60_000);
    await engine.tick();
    const opened = await rowOf(jobId, device.id);
    expect(opened.hold).toBeNull();
    expect(opened.commandId).not.toBeNull();
  });
});
