import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { createDemo } from './demo';
import type { Demo } from './demo';
import { DEMO } from './demo.seed';

// The demo's device sets (docs/product/device-sets.md): with the fleet online, the demo makes
// tags, a custom field, two groups and a weekly policy once, through the portal's services.

type Envelope<T> = { success: boolean; data: T };
type Named = { id: number; name: string };

describe('the demo device sets', () => {
  let server: TestServer;
  let demo: Demo;
  let token: string;
  const get = async <T>(path: string) =>
    (await server.request<Envelope<T>>('GET', `/api/customer${path}`, { token })).body.data;

  beforeAll(async () => {
    server = await startTestServer({ env: { OUTPOST_DEMO_DEVICES: '12' } });
    demo = createDemo(server.config, server.database, server.app.log);
    await demo.seed();
    await demo.startFleet(server.url, server.app.demoSets);
    token = (await server.devSignIn(DEMO.adminEmail)).token;
  });
  afterAll(async () => {
    await demo.stop();
    await server.close();
  });

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
    await demo.stop();
    await demo.startFleet(server.url, server.app.demoSets);
    expect(await get<Named[]>('/tags')).toHaveLength(3);
  }, 120_000);
});
