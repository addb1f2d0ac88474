import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InventoryMessage } from '@outpost/contract/agent-protocol';
import type { Device, DeviceListResponse } from '@outpost/contract/devices';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { createEnrollmentToken, enroll, facts, onlineAgent } from '../../../test/support/live';

// The inventory parts an agent could not collect stay on the device row and show in its detail
// (docs/agent-windows.md): a part sent again leaves the note, a part named again replaces its
// reason, and a refresh of one part that names nothing leaves the others' notes alone.

const POWERSHELL = 'PowerShell is not available on this device';

describe('devices: inventory parts not reported', () => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    server = await startTestServer();
    await server.seedDemo();
    admin = (await server.devSignIn('admin@acme.example')).token;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('keeps what the agent could not collect on the device until it reports it', async () => {
    const token = (await createEnrollmentToken(server, admin)).token;
    const res = await enroll(server, token, facts({ hostname: 'pc-no-ps', machineId: 'mid-pc-no-ps' }));
    expect(res.status).toBe(200);
    const guid = res.body.data.device_guid;
    const agent = await onlineAgent(server.url, res.body.data);
    let n = 0;
    const send = async (parts: Partial<InventoryMessage>) => {
      const messageId = `inv-${++n}`;
      agent.send({ type: 'inventory', messageId, collectedAt: new Date().toISOString(), ...parts });
      await agent.waitFor('ack', (m) => m.messageId === messageId);
    };
    const detail = async () => {
      const r = await server.request<{ data: Device }>('GET', `/api/customer/devices/${guid}`, {
        token: admin,
      });
      expect(r.status).toBe(200);
      return r.body.data.not_reported;
    };

    expect(await detail()).toEqual([]);
    // the end of a full collection: services and software missing (named in any order)
    await send({
      notReported: [
        { kind: 'services', reason: POWERSHELL },
        { kind: 'software', reason: POWERSHELL },
      ],
    });
    expect(await detail()).toEqual([
      { kind: 'software', reason: POWERSHELL },
      { kind: 'services', reason: POWERSHELL },
    ]);
    // a refresh of the network that lacked nothing: the note of the others stays
    await send({ network: { externalIp: null, dnsServers: [], interfaces: [] }, notReported: [] });
    expect(await detail()).toEqual([
      { kind: 'software', reason: POWERSHELL },
      { kind: 'services', reason: POWERSHELL },
    ]);
    // the software arrives: it leaves the note
    await send({
      software: [{ name: 'App', displayName: null, publisher: null, version: '1', installDate: null }],
    });
    expect(await detail()).toEqual([{ kind: 'services', reason: POWERSHELL }]);
    // services named again with another reason: the reason is replaced
    await send({ notReported: [{ kind: 'services', reason: 'The services inventory did not answer' }] });
    expect(await detail()).toEqual([{ kind: 'services', reason: 'The services inventory did not answer' }]);
    await send({ services: [] });
    expect(await detail()).toEqual([]);

    // the list does not carry it; another tenant cannot read the device
    const list = await server.request<{ data: DeviceListResponse }>(
      'GET',
      '/api/customer/devices?limit=100',
      { token: admin },
    );
    const row = list.body.data.data.find((d) => d.device_guid === guid);
    expect(row).toMatchObject({ device_guid: guid });
    expect(row).not.toHaveProperty('not_reported');
    const other = (await server.devSignIn('admin@globex.example')).token;
    const hidden = await server.request('GET', `/api/customer/devices/${guid}`, { token: other });
    expect(hidden.status).toBe(404);
    await agent.close();
  });
});
