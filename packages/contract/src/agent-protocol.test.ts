import { describe, expect, it } from 'vitest';
import { AgentMessage, ServerToAgentMessage } from './agent-protocol';

// Inventory digests were added to protocol version 1 (docs/decisions/2026-11-26-fleet-scale.md): both sides
// must accept messages from older and newer peers.
describe('agent protocol: inventory digests stay compatible both ways', () => {
  const hello = {
    type: 'hello',
    protocolVersion: 1,
    agentVersion: '1.0.0',
    hostname: 'pc-1',
    osType: 'windows',
    osVersion: '11',
  };
  const welcome = {
    type: 'welcome',
    protocolVersion: 1,
    deviceGuid: 'g',
    heartbeatIntervalMs: 30_000,
    serverTime: new Date().toISOString(),
  };

  it('accepts a hello and a welcome without them (older agents and servers)', () => {
    expect(AgentMessage.safeParse(hello).success).toBe(true);
    expect(ServerToAgentMessage.safeParse(welcome).success).toBe(true);
  });

  it('drops a part a newer peer names instead of refusing the message', () => {
    const parsed = AgentMessage.parse({
      ...hello,
      inventoryDigests: { software: 'a', processes: 'b' },
    });
    expect(parsed.type === 'hello' && parsed.inventoryDigests).toEqual({ software: 'a' });
    const answer = ServerToAgentMessage.parse({ ...welcome, inventoryCurrent: ['software', 'processes'] });
    expect(answer.type === 'welcome' && answer.inventoryCurrent).toEqual(['software', 'processes']);
  });
});
