import type { DeploymentJob, DeploymentJobDetail } from '@outpost/contract/deployments';
import type { ListData } from '@outpost/contract/envelope';
import type { MaintenanceWindow } from '@outpost/contract/maintenance-windows';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoWithFleet } from '../../../test/support/demo';

// The demo's safe rollouts (docs/product/rollouts.md): a weeknight window on the first site, a
// window on the pilot ring group, a rollout halted at its second wave as the engine leaves one,
// and a job run only inside maintenance windows.

describe('the demo rollouts and maintenance windows', () => {
  let demo: Awaited<ReturnType<typeof startDemoWithFleet>>;
  const get = <T>(path: string) => demo.get<T>(path);

  beforeAll(async () => {
    demo = await startDemoWithFleet(12);
  });
  afterAll(() => demo?.close());

  it('has a weeknight window on the first site and a Saturday one on the pilot ring', async () => {
    const windows = await get<MaintenanceWindow[]>('/maintenance-windows');
    const site = windows.filter((w) => w.site_id !== null);
    expect(site).toHaveLength(1);
    expect(site[0]).toMatchObject({
      name: 'Weeknight maintenance',
      site_name: 'Headquarters',
      days: [1, 2, 3, 4, 5],
      start_time: '22:00',
      duration_minutes: 240,
      enabled: true,
      timezone: 'America/New_York',
    });
    expect(site[0]!.next_opens_at).not.toBeNull();
    expect(windows.filter((w) => w.group_id !== null).map((w) => [w.name, w.group_name])).toEqual([
      ['Saturday early', 'Pilot ring'],
    ]);
  });

  it('shows a rollout halted at its second wave, as the engine leaves one', async () => {
    const list = await get<ListData<DeploymentJob>>('/deployments?limit=100');
    const halted = list.data.filter((j) => j.rollout_state === 'halted');
    expect(halted).toHaveLength(1);
    const job = await get<DeploymentJobDetail>(`/deployments/${halted[0]!.id}`);
    expect(job.status).toBe('running');
    const rollout = job.rollout!;
    expect(rollout).toMatchObject({ mode: 'percent', state: 'halted', current_wave: 1 });
    expect(rollout.state_reason).toMatch(
      /^Wave 2 halted: 1 of \d+ devices failed \([\d.]+ %\), above the 5 % allowed$/,
    );
    expect(rollout.waves.map((w) => w.state)).toEqual(['passed', 'halted', 'waiting']);
    const [first, second, third] = rollout.waves;
    expect(first!.completed_devices).toBe(first!.total_devices);
    expect(second!.failed_devices).toBe(Math.min(2, second!.total_devices - 1));
    expect(third!.started_at).toBeNull();

    // the device rows: the third wave waits for its wave, the second wave's untaken device is held
    const byWave = (i: number) => job.deployments.filter((d) => d.wave_index === i);
    expect(byWave(2).every((d) => d.status === 'pending' && d.hold === 'wave')).toBe(true);
    expect(byWave(2)[0]!.hold_note).toBe('Waiting for wave 3');
    const held = byWave(1).filter((d) => d.status === 'pending');
    expect(held.map((d) => [d.hold, d.hold_note])).toEqual([
      ['halted', 'Held: the rollout halted at wave 2'],
    ]);
    expect(job.deployments.filter((d) => d.status !== 'pending').every((d) => d.hold === null)).toBe(true);
    expect(job.completed_devices).toBe(job.deployments.filter((d) => d.status === 'completed').length);
    expect(job.failed_devices).toBe(second!.failed_devices);

    // a failed device's step log says why, and a step after the failing one never ran
    const failed = byWave(1).find((d) => d.status === 'failed')!;
    expect(failed.error_message).toMatch(/^Step 1 \(.+\) failed: Exit code \d+$/);
    const logs = await get<{ logs: { status: string; step_order: number }[] }>(
      `/deployments/device-deployment/${failed.id}/logs`,
    );
    expect(logs.logs.map((l) => [l.step_order, l.status])).toEqual([[1, 'failed']]);

    // the halt is in the audit log, by the rollout gate
    const audit =
      await get<ListData<{ action: string; user_name: string | null; details: string | null }>>(
        '/audit?limit=100',
      );
    const entry = audit.data.find((a) => a.action === 'Halt Rollout');
    expect(entry?.details).toBe(`${job.name}: ${rollout.state_reason}`);
  });

  it('has a job run only inside maintenance windows', async () => {
    const list = await get<ListData<DeploymentJob>>('/deployments?limit=100');
    const windowed = list.data.filter((j) => j.only_in_windows);
    expect(windowed.map((j) => j.name)).toEqual([expect.stringMatching(/^Inside maintenance windows: /)]);
    const job = await get<DeploymentJobDetail>(`/deployments/${windowed[0]!.id}`);
    expect(job.deployments.length).toBeGreaterThan(0);
    expect(job.deployments.length).toBeLessThanOrEqual(3);
  });
});
