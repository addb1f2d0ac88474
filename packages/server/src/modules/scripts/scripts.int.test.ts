import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { ListData } from '@outpost/contract/envelope';
import type {
  ScriptCategory,
  ScriptDetail,
  ScriptExport,
  ScriptImportResult,
  ScriptSummary,
  ScriptVersionDetail,
  ScriptVersionSummary,
} from '@outpost/contract/scripts';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { auditLogs, scripts } from '../../db/schema/index';

// docs/product/scripts.md: the library's calls over HTTP — CRUD, versions, name conflicts,
// secrets never returned nor audited, import and export, tenant and site scope.

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };
const API = '/api/customer/scripts';
const SECRET = 'hunter2-very-secret';

const scriptBody = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  description: 'Reports the disks',
  category: 'Diagnostics',
  language: 'bash',
  os: 'linux',
  body: 'df -h "$OUTPOST_PATH"\n',
  params: [
    { name: 'path', label: 'Path', type: 'text', default: '/', pattern: '/.*' },
    { name: 'depth', type: 'number', default: '2', min: 1, max: 5 },
    { name: 'mode', type: 'select', options: ['fast', 'full'], default: 'fast' },
    { name: 'token', type: 'secret', default: SECRET },
  ],
  ...extra,
});

describe('script library', () => {
  let server: TestServer;
  let admin: string;
  let globex: string;
  let london: string;

  const call = <T>(method: string, path: string, token: string, body?: unknown) =>
    server.request<Envelope<T>>(method, path, { token, body });
  const create = async (name: string, extra: Record<string, unknown> = {}) => {
    const res = await call<ScriptDetail>('POST', API, admin, scriptBody(name, extra));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data;
  };
  const auditRows = (id: number) =>
    server.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.resourceType, 'script'), eq(auditLogs.resourceId, String(id))));

  beforeAll(async () => {
    server = await startTestServer();
    const seeded = (await server.seedDemo())!;
    admin = (await server.devSignIn('admin@acme.example')).token;
    globex = (await server.devSignIn('admin@globex.example')).token;
    const lon = seeded.siteIds[1]!;
    const res = await call('POST', '/api/customer/users', admin, {
      email: 'scripts-london@acme.example',
      name: 'London',
      role: 'tenant_admin',
      site_access_type: 'specific',
      site_ids: [lon],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    london = (await server.devSignIn('scripts-london@acme.example')).token;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('the demo tenants start with a few everyday scripts', async () => {
    for (const token of [admin, globex]) {
      const list = await call<ListData<ScriptSummary>>('GET', `${API}?limit=100`, token);
      expect(list.body.data.data.map((s) => s.name)).toEqual(
        expect.arrayContaining([
          'Collect system info',
          'Disk usage report',
          'Flush DNS cache',
          'Restart print spooler',
        ]),
      );
    }
    const info = await call<ListData<ScriptSummary>>('GET', `${API}?search=Collect%20system`, admin);
    const detail = await call<ScriptDetail>('GET', `${API}/${info.body.data.data[0]!.id}`, admin);
    expect(detail.body.data.params.find((p) => p.type === 'secret')).toMatchObject({ name: 'api_token' });
  });

  it('creates, reads, lists, updates with a new version, and deletes', async () => {
    const created = await create('Disk usage int');
    expect(created).toMatchObject({
      version: 1,
      language: 'bash',
      os: 'linux',
      params_count: 4,
      category: 'Diagnostics',
    });
    const list = await call<ListData<ScriptSummary>>('GET', `${API}?search=usage%20int&language=bash`, admin);
    expect(list.body.data.data.map((s) => s.id)).toEqual([created.id]);

    const updated = await call<ScriptDetail>('PUT', `${API}/${created.id}`, admin, {
      ...scriptBody('Disk usage int'),
      body: 'df -h\nlsblk\n',
      params: [{ name: 'token', type: 'secret', default: null, keep_secret: true }],
      change_note: 'lsblk too',
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.data.version).toBe(2);
    expect(updated.body.data.params).toEqual([
      expect.objectContaining({ name: 'token', default: null, has_default: true }),
    ]);

    const versions = await call<ScriptVersionSummary[]>('GET', `${API}/${created.id}/versions`, admin);
    expect(versions.body.data.map((v) => [v.version, v.change_note])).toEqual([
      [2, 'lsblk too'],
      [1, null],
    ]);
    const v1 = await call<ScriptVersionDetail>('GET', `${API}/${created.id}/versions/1`, admin);
    expect(v1.body.data.body).toBe('df -h "$OUTPOST_PATH"\n');
    expect(v1.body.data.params).toHaveLength(4);
    expect((await call('GET', `${API}/${created.id}/versions/9`, admin)).status).toBe(404);

    const cats = await call<ScriptCategory[]>('GET', `${API}/categories`, admin);
    expect(cats.body.data.find((c) => c.name === 'Diagnostics')?.count).toBeGreaterThanOrEqual(1);

    expect((await call('DELETE', `${API}/${created.id}`, admin)).status).toBe(200);
    expect((await call('GET', `${API}/${created.id}`, admin)).status).toBe(404);
    const actions = (await auditRows(created.id)).map((r) => r.action).sort();
    expect(actions).toEqual(['script.create', 'script.delete', 'script.update']);
  });

  it('refuses a taken name (any case) with 409, and bad definitions with 400 naming the problem', async () => {
    await create('Flush DNS int');
    const dup = await call('POST', API, admin, scriptBody('flush dns INT'));
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('A script named "flush dns INT" already exists');

    const cases: [Record<string, unknown>, RegExp][] = [
      [{ language: 'cmd', os: 'linux' }, /Command Prompt.*cannot target Linux/],
      [
        {
          params: [
            { name: 'a', type: 'text' },
            { name: 'A', type: 'text' },
          ],
        },
        /Two parameters are named A/,
      ],
      [
        { params: [{ name: 'c', type: 'select', options: ['x'], default: 'y' }] },
        /Default of c must be one of: x/,
      ],
      [
        { params: [{ name: 'n', type: 'number', default: '9', min: 1, max: 5 }] },
        /Default of n must be at most 5/,
      ],
      [
        { params: [{ name: 't', type: 'text', default: 'abc', pattern: '\\d+' }] },
        /does not match the pattern/,
      ],
      [{ params: [{ name: 't', type: 'text', pattern: '(' }] }, /not a valid regular expression/],
      [{ params: [{ name: '9bad', type: 'text' }] }, /A parameter name starts with a letter/],
      [{ body: 'x'.repeat(256 * 1024 + 1) }, /larger than 256 KiB/],
    ];
    for (const [extra, message] of cases) {
      const res = await call('POST', API, admin, scriptBody('Bad one int', extra));
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.body.error).toMatch(message);
    }
  });

  it('never returns a secret default nor writes it to the audit trail; keep_secret keeps it', async () => {
    const created = await create('Secret int');
    const token = created.params.find((p) => p.name === 'token');
    expect(token).toMatchObject({ default: null, has_default: true });
    expect(JSON.stringify(created)).not.toContain(SECRET);
    const [row] = await server.database.db.select().from(scripts).where(eq(scripts.id, created.id));
    expect(JSON.stringify(row)).not.toContain(SECRET);

    // an update without keep_secret and no value drops it
    const dropped = await call<ScriptDetail>('PUT', `${API}/${created.id}`, admin, {
      ...scriptBody('Secret int'),
      params: [{ name: 'token', type: 'secret', default: null }],
    });
    expect(dropped.body.data.params[0]).toMatchObject({ has_default: false });
    const audit = await auditRows(created.id);
    expect(audit.length).toBe(2);
    for (const r of audit) {
      expect(`${r.oldValues} ${r.newValues} ${r.details}`).not.toContain(SECRET);
    }
    expect(audit.find((r) => r.action === 'script.create')?.newValues).toContain('••••');
  });

  it('exports without secrets and imports all-or-nothing with free names', async () => {
    const a = await create('Export me int', { category: 'Transfer' });
    const exported = await server.request<ScriptExport>('GET', `${API}/export?ids=${a.id}`, { token: admin });
    expect(exported.status).toBe(200);
    expect(exported.body.format).toBe('outpost-scripts/1');
    expect(exported.body.scripts).toHaveLength(1);
    expect(JSON.stringify(exported.body)).not.toContain(SECRET);
    expect(exported.body.scripts[0]!.params.find((p) => p.name === 'token')?.default).toBeNull();

    const first = await call<ScriptImportResult>('POST', `${API}/import`, admin, exported.body);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data.imported.map((s) => s.name)).toEqual(['Export me int (imported)']);
    const second = await call<ScriptImportResult>('POST', `${API}/import`, admin, exported.body);
    expect(second.body.data.imported.map((s) => s.name)).toEqual(['Export me int (imported 2)']);
    const copy = await call<ScriptDetail>('GET', `${API}/${first.body.data.imported[0]!.id}`, admin);
    expect(copy.body.data).toMatchObject({ body: a.body, category: 'Transfer', version: 1 });

    const bad = {
      ...exported.body,
      scripts: [
        { ...exported.body.scripts[0], name: 'Fine int' },
        { ...exported.body.scripts[0], name: 'Broken int', language: 'cobol' },
      ],
    };
    const refused = await call('POST', `${API}/import`, admin, bad);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('Script 2 ("Broken int"): language: Choose a language');
    const names = await call<ListData<ScriptSummary>>('GET', `${API}?search=Fine%20int`, admin);
    expect(names.body.data.data).toHaveLength(0);
    const wrong = await call('POST', `${API}/import`, admin, { format: 'other/1', scripts: [] });
    expect(wrong.status).toBe(400);
  });

  it("another tenant's script is not found; a site-limited member reads but does not change", async () => {
    const mine = await create('Scoped int');
    for (const [method, path, body] of [
      ['GET', `${API}/${mine.id}`, undefined],
      ['PUT', `${API}/${mine.id}`, scriptBody('Scoped int')],
      ['DELETE', `${API}/${mine.id}`, undefined],
      ['GET', `${API}/${mine.id}/versions`, undefined],
      ['POST', `${API}/${mine.id}/runs`, { device_ids: [1] }],
    ] as const) {
      expect((await call(method, path, globex, body)).status, `${method} ${path}`).toBe(404);
    }
    const globexList = await call<ListData<ScriptSummary>>('GET', API, globex);
    expect(globexList.body.data.data.some((s) => s.id === mine.id)).toBe(false);
    const exported = await server.request<ScriptExport>('GET', `${API}/export?ids=${mine.id}`, {
      token: globex,
    });
    expect(exported.status).toBe(200);
    expect(exported.body.scripts).toHaveLength(0);

    expect((await call('GET', `${API}/${mine.id}`, london)).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', API, scriptBody('London int')],
      ['PUT', `${API}/${mine.id}`, scriptBody('Scoped int')],
      ['DELETE', `${API}/${mine.id}`, undefined],
    ] as const) {
      const res = await call(method, path, london, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.code).toBe('SCRIPT_READ_ONLY');
    }
    expect((await call<ScriptDetail>('GET', `${API}/${mine.id}`, admin)).body.data.version).toBe(1);
  });
});
