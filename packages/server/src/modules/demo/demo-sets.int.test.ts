import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoWithFleet } from '../../../test/support/demo';

// The demo's device sets (docs/product/device-sets.md): with the fleet online, the demo makes
// tags, a custom field, two groups and a weekly policy once, through the portal's services.

type Named = { id: number; name: string };

describe('the demo device sets', () => {
  let demo: Awaited<ReturnType<typeof startDemoWithFleet>>;
  const get = <T>(path: string) => demo.get<T>(path);

  beforeAll(async () => {
    demo = await startDemoWithFleet(12);
  });
  afterAll(() => demo?.close());

  it('tags devices, sets a custom field, makes two groups and a weekly policy, once', async () => {
    const tags = await get<(Named & { device_count: number })[]>('/tags');
    expect(tags.map((t) => [t.name, t.device_count]).sort()).toEqual([
      ['Kiosk', 2],
      ['Pilot ring', 5],
      ['VIP', 2],
    ]);
    const fields = await get<{ key: string; options: string[] }[]>('/custom-fields');
    expect(fields.map((f) => f.key)).toEqual(['asset_owner']);
    const groups = await get<{ data: (Named & { member_count: number; kind: string })[] }>('/groups');
    const ring = groups.data.find((g) => g.name === 'Pilot ring');
    expect(ring).toMatchObject({ kind: 'dynamic', member_count: 5 });
    expect(groups.data.map((g) => g.name).sort()).toEqual(['Pilot ring', 'Windows 11']);
    const policies = await get<(Named & { enabled: boolean; next_run_at: string | null })[]>('/policies');
    expect(policies).toHaveLength(1);
    expect(policies[0]).toMatchObject({ name: 'Weekly pilot update', enabled: true });
    expect(policies[0]!.next_run_at).not.toBeNull();

    // a second start makes nothing twice
    await demo.demo.stop();
    await demo.demo.startFleet(demo.server.url, demo.server.app.demoSets);
    expect(await get<Named[]>('/tags')).toHaveLength(3);
  }, 120_000);
});
