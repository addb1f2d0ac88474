import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { insertDevice } from '../../../test/support/devices';

// A 100,000-device export streams (docs/product/device-sets.md#exports): the walk reads a page at
// a time as the client takes the bytes. Proof without timings: a device enrolled after the first
// bytes arrived, sorting last, is in the file (an export read whole before its first byte could
// not contain it), and the server's memory does not grow with the export.

const DEVICES = 100_000;
const MB = 1024 * 1024;

describe('device export at 100,000 devices', () => {
  let server: TestServer;
  let admin: string;
  let acme: number;

  beforeAll(async () => {
    server = await startTestServer();
    const demo = (await server.seedDemo())!;
    acme = demo.acmeTenantId;
    admin = (await server.devSignIn('admin@acme.example')).token;
    // about 250 bytes a record: some 25 MB of CSV, far more than the socket and stream buffers hold
    await server.database.db.execute(sql`
      insert into devices (tenant_id, device_guid, secret_hash, hostname, serial_number, os_type, os_version, status)
      select ${acme}, gen_random_uuid(), 'x', 'fleet-' || lpad(g::text, 6, '0') || '-' || repeat('w', 80),
        'SN-' || repeat('0', 40) || g, 'windows', 'Windows 11 Enterprise 23H2 (build 22631.4460)', 'offline'
      from generate_series(1, ${DEVICES}) g`);
  }, 300_000);
  afterAll(async () => {
    await server?.close();
  });

  it('sends the first bytes before it has read the last devices, in bounded memory', async () => {
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    const res = await fetch(`${server.url}/api/customer/devices`, {
      headers: { authorization: `Bearer ${admin}`, accept: 'text/csv' },
    });
    expect(res.status).toBe(200);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let records = 0;
    let tail = '';
    let hasMarker = false;
    let peakRss = rssBefore;
    const take = (chunk: Uint8Array) => {
      const text = tail + decoder.decode(chunk, { stream: true });
      const lines = text.split('\r\n');
      tail = lines.pop() ?? '';
      records += lines.length;
      hasMarker ||= lines.some((l) => l.startsWith('zzzz-enrolled-later'));
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    };
    const first = await reader.read();
    expect(first.done).toBe(false);
    take(first.value as Uint8Array);
    expect(records).toBeGreaterThan(0);
    // the walk is under way; a device enrolled now sorts after every other one
    await insertDevice(server, { tenantId: acme, hostname: 'zzzz-enrolled-later', status: 'online' });
    for (;;) {
      const next = await reader.read();
      if (next.done) {
        break;
      }
      take(next.value);
    }
    expect(tail).toBe('');
    // the header, every seeded device and the one enrolled during the export
    expect(records).toBe(1 + DEVICES + 1);
    expect(hasMarker).toBe(true);
    expect(peakRss - rssBefore).toBeLessThan(150 * MB);
  }, 300_000);
});
