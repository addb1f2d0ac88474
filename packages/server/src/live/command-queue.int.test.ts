import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { AGENT_CLOSE } from '@outpost/contract/agent-protocol';
import type { EnrollResult } from '@outpost/contract/agent-protocol';
import { startTestServer } from '../../test/harness';
import type { TestServer } from '../../test/harness';
import { deviceCommands, devices } from '../db/schema/index';
import { createEnrollmentToken, enroll, facts, onlineAgent } from '../../test/support/live';

// The command queue over real agent sockets (docs/product/agent-protocol.md#commands): the database is the queue, the
// bus is the doorbell; a command is offered again after a reconnect and answered exactly once.

describe('command queue: delivery, re-offer, results', () => {
  let server: TestServer;
  let tenantId: number;
  let enrollToken: string;

  beforeAll(async () => {
    server = await startTestServer();
    await server.seedDemo();
    const admin = await server.devSignIn('admin@acme.example');
    tenantId = admin.user.tenant_id;
    enrollToken = (await createEnrollmentToken(server, admin.token)).token;
  });
  afterAll(async () => server?.close());

  async function enrolled(hostname: string): Promise<EnrollResult> {
    const res = await enroll(server, enrollToken, facts({ hostname, machineId: `mid-${hostname}` }));
    expect(res.status).toBe(200);
    return res.body.data;
  }

  const device = async (guid: string) => {
    const [row] = await server.database.db.select().from(devices).where(eq(devices.deviceGuid, guid));
    return row ?? null;
  };

  it('delivers a queued command, re-offers it after a reconnect, and resolves waitForResult', async () => {
    const creds = await enrolled('pc-commands');
    const d = (await device(creds.device_guid))!;
    // queued while the device is offline: the row waits in the database
    const { commandId } = await server.app.commandQueue.sendCommand({
      tenantId,
      deviceId: d.id,
      command: { kind: 'service_control', serviceName: 'Spooler', action: 'restart' },
    });
    const first = await onlineAgent(server.url, creds);
    const cmd = await first.waitFor('command');
    expect(cmd).toMatchObject({ commandId, command: { kind: 'service_control', serviceName: 'Spooler' } });
    // no result yet: a new connection gets the command again
    await first.close();
    const second = await onlineAgent(server.url, creds);
    await second.waitFor('command', (m) => m.commandId === commandId);
    const waiting = server.app.commandQueue.waitForResult(commandId, 5000);
    second.send({
      type: 'command_result',
      messageId: 'r-1',
      commandId,
      status: 'completed',
      result: { serviceName: 'Spooler', action: 'restart', status: 'Running' },
    });
    await second.waitFor('ack', (m) => m.messageId === 'r-1');
    expect(await waiting).toMatchObject({ status: 'completed', result: { status: 'Running' } });
    const [row] = await server.database.db
      .select()
      .from(deviceCommands)
      .where(eq(deviceCommands.id, commandId));
    expect(row?.status).toBe('completed');
    // a command sent while connected arrives at once
    const live = await server.app.commandQueue.sendCommand({
      tenantId,
      deviceId: d.id,
      command: { kind: 'refresh_inventory', inventoryKind: 'software' },
    });
    await second.waitFor('command', (m) => m.commandId === live.commandId);
    await second.close();
  });

  it('rejects malformed messages without crashing and never touches another device’s command', async () => {
    const victim = await enrolled('pc-victim');
    const victimRow = (await device(victim.device_guid))!;
    const { commandId } = await server.app.commandQueue.sendCommand({
      tenantId,
      deviceId: victimRow.id,
      command: { kind: 'device_action', action: 'restart' },
    });
    const attacker = await onlineAgent(server.url, await enrolled('pc-attacker'));
    attacker.send('{not json');
    await attacker.waitFor('error', (m) => m.code === 'invalid_message');
    // off-contract on purpose, so sent as raw text
    attacker.send(
      JSON.stringify({ type: 'inventory', messageId: 'x', collectedAt: 'now', hardware: { cpu: 'bad' } }),
    );
    attacker.send(JSON.stringify({ type: 'no-such-type' }));
    attacker.send({
      type: 'command_result',
      messageId: 'steal',
      commandId,
      status: 'completed',
      result: { pwned: true },
    });
    const denied = await attacker.waitFor('error', (m) => m.code === 'unknown_command');
    expect(JSON.stringify(denied)).not.toContain(victim.device_guid);
    const [cmd] = await server.database.db
      .select()
      .from(deviceCommands)
      .where(eq(deviceCommands.id, commandId));
    expect(cmd?.status).toBe('pending');
    // the socket still works and the server still answers
    attacker.send({ type: 'heartbeat' });
    expect((await server.request('GET', '/api/health')).status).toBe(200);
    // nothing the attacker received names another device
    expect(JSON.stringify(attacker.received)).not.toContain(victim.device_guid);
    // a flood of garbage closes the socket
    for (let i = 0; i < 12; i++) {
      attacker.send('garbage');
    }
    expect((await attacker.waitForClose()).code).toBe(AGENT_CLOSE.protocolError);
  });
});
