import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { send } from './senders';

const facts = { id: 1, event: 'test', createdAt: new Date(), tenantName: 'Acme' };
const webhook = (url: string) => ({ kind: 'webhook' as const, config: { url }, secret: null });

/** A loopback port nothing listens on: opened, then closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

describe('notification senders', () => {
  it('names why a webhook could not be reached, not just "fetch failed"', async () => {
    const refused = await send(
      webhook(`http://127.0.0.1:${await closedPort()}/x`),
      { subject: 's', text: 't' },
      facts,
    );
    expect(refused).toEqual({ ok: false, code: null, error: 'fetch failed (ECONNREFUSED)' });
    // a port fetch never uses (9, discard) says so
    const blocked = await send(webhook('http://127.0.0.1:9/x'), { subject: 's', text: 't' }, facts);
    expect(blocked.error).toBe('fetch failed: bad port');
  });
});
