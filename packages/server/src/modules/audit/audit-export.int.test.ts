import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { csvObjects, parseCsv } from '../../../test/support/csv';

// The audit log as CSV (docs/product/device-sets.md#exports): GET /api/customer/audit with
// Accept: text/csv answers every entry the filters match, newest first; administrators only.

describe('audit log CSV export', () => {
  let server: TestServer;
  let admin: string;
  let user: string;
  let globexAdmin: string;

  const csv = (query: string, token = admin) =>
    server.request<string>('GET', `/api/customer/audit${query}`, { token, headers: { accept: 'text/csv' } });

  beforeAll(async () => {
    server = await startTestServer();
    await server.seedDemo();
    admin = (await server.devSignIn('admin@acme.example')).token;
    user = (await server.devSignIn('tech@acme.example')).token;
    globexAdmin = (await server.devSignIn('admin@globex.example')).token;
    for (const [name, code] of [
      ['=Formula site', 'FX1'],
      ['Plain site', 'PL1'],
    ]) {
      const r = await server.request('POST', '/api/customer/sites', {
        token: admin,
        body: { site_name: name, site_code: code },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  it('exports the filtered log, newest first, with formulas neutralised', async () => {
    const r = await csv('?action=Create%20Site');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-disposition')).toMatch(/filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"/);
    const [header] = parseCsv(r.body);
    expect(header).toEqual([
      'Time',
      'User',
      'E-mail',
      'Role',
      'Action',
      'Resource type',
      'Resource ID',
      'Details',
      'IP address',
    ]);
    const rows = csvObjects(r.body);
    expect(rows.map((e) => e.Action)).toEqual(['Create Site', 'Create Site']);
    expect(rows[0]!.Details).toContain('Plain site');
    expect(rows[1]!.Details).not.toMatch(/^=/);
    expect(rows[0]!['E-mail']).toBe('admin@acme.example');
    // the list's own answer agrees
    const list = await server.request<{ data: { pagination: { total: number } } }>(
      'GET',
      '/api/customer/audit?action=Create%20Site',
      { token: admin },
    );
    expect(list.body.data.pagination.total).toBe(rows.length);
  });

  it('is for administrators of the tenant only; bad filters are a 400', async () => {
    expect((await csv('', user)).status).toBe(403);
    const globex = csvObjects((await csv('?action=Create%20Site', globexAdmin)).body);
    expect(globex).toEqual([]);
    expect((await csv('?start_date=2026-11-27&end_date=2026-11-01')).status).toBe(400);
  });
});
