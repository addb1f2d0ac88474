import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { UploadedFile } from '@outpost/contract/files';
import { packageMessages } from '@outpost/contract/messages';
import type { PackageDetail, PackageExport, PackageStep, PackageSummary } from '@outpost/contract/packages';
import type { ListData } from '@outpost/contract/envelope';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { auditLogs } from '../../db/schema/index';

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };

const API = '/api/customer/deployment-packages';

describe('deployment packages API', () => {
  let server: TestServer;
  let token: string;
  let techToken: string;
  let globexToken: string;

  const call = <T>(method: string, path: string, body?: unknown, as = token) =>
    server.request<Envelope<T>>(method, path, { token: as, body });

  async function upload(name: string, content: string, as = token): Promise<UploadedFile> {
    const form = new FormData();
    form.append('file', new Blob([content]), name);
    const res = await fetch(`${server.url}/api/customer/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${as}` },
      body: form,
    });
    return ((await res.json()) as Envelope<UploadedFile>).data;
  }

  async function createPackage(body: Record<string, unknown> = {}) {
    const res = await call<PackageDetail>('POST', API, {
      name: `Package ${Math.random().toString(36).slice(2, 8)}`,
      ...body,
    });
    expect(res.status).toBe(200);
    return res.body.data;
  }

  const cmdStep = (name: string, command = 'echo hi') => ({
    step_name: name,
    step_type: 'CMD',
    step_details: JSON.stringify({ command }),
  });

  beforeAll(async () => {
    server = await startTestServer();
    await server.seedDemo();
    token = (await server.devSignIn('admin@acme.example')).token;
    techToken = (await server.devSignIn('tech@acme.example')).token;
    globexToken = (await server.devSignIn('admin@globex.example')).token;
  });
  afterAll(async () => server.close());

  describe('packages', () => {
    it('creates with the spec’s defaults and answers data.id', async () => {
      const res = await call<PackageDetail>('POST', API, {
        name: '  Chrome Enterprise  ',
        description: 'Browser',
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        name: 'Chrome Enterprise',
        description: 'Browser',
        target_os: 'windows',
        architecture: 'x64',
        package_version: '1.0.0',
        is_template: false,
        step_count: 0,
        steps: [],
        created_by_name: 'Alex Morgan',
      });
      expect(res.body.data.id).toBeGreaterThan(0);
    });

    it('refuses a missing name and a macOS package with the spec’s words', async () => {
      const noName = await call('POST', API, { name: '   ' });
      expect(noName.status).toBe(400);
      expect(noName.body.error).toBe(packageMessages.packageNameRequired);
      const mac = await call('POST', API, { name: 'Mac thing', target_os: 'macos' });
      expect(mac.status).toBe(400);
      expect(mac.body.error).toBe(packageMessages.targetOsWindowsOnly);
      const arch = await call('POST', API, { name: 'x', architecture: 'sparc' });
      expect(arch.status).toBe(400);
    });

    it('updates without target_os and keeps omitted fields', async () => {
      const pkg = await createPackage({
        architecture: 'arm64',
        os_version_requirement: 'Windows 11',
        description: 'Kept',
      });
      const res = await call<PackageDetail>('PUT', `${API}/${pkg.id}`, {
        name: 'Renamed',
        package_version: '2.0.0',
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        name: 'Renamed',
        package_version: '2.0.0',
        architecture: 'arm64',
        description: 'Kept',
        os_version_requirement: 'Windows 11',
      });
      const cleared = await call<PackageDetail>('PUT', `${API}/${pkg.id}`, {
        name: 'Renamed',
        description: '',
      });
      expect(cleared.body.data).toMatchObject({ description: null, os_version_requirement: 'Windows 11' });
    });

    it('lists with step_count, created_by_name, search, filters and pagination', async () => {
      const tag = `zz${Date.now()}`;
      const a = await createPackage({ name: `${tag} Alpha`, description: 'first' });
      await createPackage({ name: `${tag} Beta`, is_template: true });
      await createPackage({ name: `Other`, description: `mentions ${tag}_%` });
      await call('POST', `${API}/${a.id}/steps`, cmdStep('one'));
      await call('POST', `${API}/${a.id}/steps`, cmdStep('two'));

      const all = await call<ListData<PackageSummary>>('GET', `${API}?search=${tag}`);
      expect(all.body.data.data.map((p) => p.name).sort()).toEqual(['Other', `${tag} Alpha`, `${tag} Beta`]);
      const alpha = all.body.data.data.find((p) => p.id === a.id)!;
      expect(alpha).toMatchObject({ step_count: 2, created_by_name: 'Alex Morgan' });
      expect(all.body.data.data[0]).not.toHaveProperty('steps');

      const templates = await call<ListData<PackageSummary>>('GET', `${API}?search=${tag}&is_template=true`);
      expect(templates.body.data.data.map((p) => p.name)).toEqual([`${tag} Beta`]);
      const packages = await call<ListData<PackageSummary>>('GET', `${API}?search=${tag}&is_template=false`);
      expect(packages.body.data.data).toHaveLength(2);
      const mac = await call<ListData<PackageSummary>>('GET', `${API}?search=${tag}&target_os=macos`);
      expect(mac.body.data.data).toHaveLength(0);
      // LIKE wildcards in the search are literal.
      const literal = await call<ListData<PackageSummary>>(
        'GET',
        `${API}?search=${encodeURIComponent(`${tag}_%`)}`,
      );
      expect(literal.body.data.data.map((p) => p.name)).toEqual(['Other']);

      const page2 = await call<ListData<PackageSummary>>('GET', `${API}?search=${tag}&page=2&limit=2`);
      expect(page2.body.data.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
      expect(page2.body.data.data).toHaveLength(1);
      expect((await call('GET', `${API}?limit=500`)).status).toBe(400);
    });

    it('lets a regular member manage packages too', async () => {
      const res = await call<PackageDetail>('POST', API, { name: 'By the tech' }, techToken);
      expect(res.status).toBe(200);
      expect(res.body.data.created_by_name).toBe('Taylor Chen');
      expect((await call('DELETE', `${API}/${res.body.data.id}`, undefined, techToken)).status).toBe(200);
    });

    it('deletes a package with its steps, audited', async () => {
      const pkg = await createPackage({ name: 'Short-lived' });
      await call('POST', `${API}/${pkg.id}/steps`, cmdStep('one'));
      const res = await call<{ message: string }>('DELETE', `${API}/${pkg.id}`);
      expect(res.status).toBe(200);
      expect((await call('GET', `${API}/${pkg.id}`)).status).toBe(404);
      const audit = await server.database.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'Delete Package'), eq(auditLogs.resourceId, String(pkg.id))));
      expect(audit).toHaveLength(1);
      expect((JSON.parse(audit[0]!.oldValues!) as { steps: unknown[] }).steps).toHaveLength(1);
    });

    it('answers 404 for another tenant’s package, on every route', async () => {
      const pkg = await createPackage({ name: 'Acme secret' });
      const step = (await call<PackageStep>('POST', `${API}/${pkg.id}/steps`, cmdStep('s'))).body.data;
      const attempts: [string, string, unknown?][] = [
        ['GET', `${API}/${pkg.id}`],
        ['PUT', `${API}/${pkg.id}`, { name: 'hijacked' }],
        ['DELETE', `${API}/${pkg.id}`],
        ['POST', `${API}/${pkg.id}/steps`, cmdStep('x')],
        ['PUT', `${API}/${pkg.id}/steps/${step.id}`, cmdStep('x')],
        ['DELETE', `${API}/${pkg.id}/steps/${step.id}`],
        ['PUT', `${API}/${pkg.id}/steps/reorder`, { stepOrders: [{ id: step.id, step_order: 1 }] }],
        ['POST', `${API}/${pkg.id}/duplicate`, {}],
        ['GET', `${API}/${pkg.id}/export`],
      ];
      for (const [method, path, body] of attempts) {
        const res = await call(method, path, body, globexToken);
        expect(res.status, `${method} ${path}`).toBe(404);
      }
      const list = await call<ListData<PackageSummary>>(
        'GET',
        `${API}?search=Acme%20secret`,
        undefined,
        globexToken,
      );
      expect(list.body.data.data).toHaveLength(0);
      expect((await call<PackageDetail>('GET', `${API}/${pkg.id}`)).body.data.name).toBe('Acme secret');
    });
  });

  describe('steps', () => {
    it('adds steps in order with step_details as a JSON string or an object, returned as an object', async () => {
      const pkg = await createPackage();
      const first = await call<PackageStep>('POST', `${API}/${pkg.id}/steps`, {
        step_name: 'Make folder',
        step_type: 'FOLDER',
        step_details: JSON.stringify({ folder_path: 'C:\\Tools', permissions: 'BUILTIN\\Users:Read' }),
        timeout_seconds: 60,
      });
      expect(first.status).toBe(200);
      expect(first.body.data).toMatchObject({
        step_order: 1,
        step_details: { folder_path: 'C:\\Tools', create_parents: true, hidden: false },
        timeout_seconds: 60,
        retry_count: 0,
        fail_deployment_on_error: true,
      });
      const second = await call<PackageStep>('POST', `${API}/${pkg.id}/steps`, {
        step_name: 'Policy',
        step_type: 'REGISTRY',
        step_details: {
          hive: 'HKEY_LOCAL_MACHINE',
          key_path: 'SOFTWARE\\Acme',
          value_type: 'REG_DWORD',
          value_data: '1',
        },
        fail_deployment_on_error: false,
        retry_count: 2,
      });
      expect(second.body.data.step_order).toBe(2);
      const detail = await call<PackageDetail>('GET', `${API}/${pkg.id}`);
      expect(detail.body.data.step_count).toBe(2);
      expect(detail.body.data.steps.map((s) => [s.step_order, s.step_name])).toEqual([
        [1, 'Make folder'],
        [2, 'Policy'],
      ]);
      expect(typeof detail.body.data.steps[1]!.step_details).toBe('object');
    });

    it.each([
      [{ ...cmdStep(''), step_name: '  ' }, packageMessages.stepNameRequired],
      [
        { step_name: 'x', step_type: 'CMD', step_details: '{}' },
        packageMessages.requiredStepFields(['Command']),
      ],
      [
        { step_name: 'x', step_type: 'EXE', step_details: '{"source_type":"upload"}' },
        packageMessages.requiredStepFields(['Installer File']),
      ],
      [
        { step_name: 'x', step_type: 'CUSTOM_ZIP', step_details: {} },
        packageMessages.requiredStepFields(['ZIP File', 'Main Executable']),
      ],
      [
        { step_name: 'x', step_type: 'MSI', step_details: { source_type: 'url', url: 'not a url' } },
        'Download URL must be a valid http:// or https:// URL',
      ],
      [{ ...cmdStep('x'), timeout_seconds: 0 }, packageMessages.stepTimeoutRange],
      [{ ...cmdStep('x'), timeout_seconds: 3601 }, packageMessages.stepTimeoutRange],
      [{ ...cmdStep('x'), retry_count: 6 }, packageMessages.stepRetryRange],
      [{ step_name: 'x', step_type: 'CMD', step_details: '{"command"' }, packageMessages.stepDetailsJson],
    ])('refuses %j with 400 “%s”', async (body, message) => {
      const pkg = await createPackage();
      const res = await call('POST', `${API}/${pkg.id}/steps`, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(message);
    });

    it('refuses a file of another tenant or one that does not exist', async () => {
      const pkg = await createPackage();
      const theirs = await upload('theirs.exe', 'MZ', globexToken);
      for (const file of [theirs, { id: 999_999, originalFilename: 'ghost.exe' }]) {
        const res = await call('POST', `${API}/${pkg.id}/steps`, {
          step_name: 'Install',
          step_type: 'EXE',
          step_details: { source_type: 'upload', file },
        });
        expect(res.status).toBe(400);
        expect(res.body.error).toBe(packageMessages.stepFileUnknown('Installer File'));
      }
    });

    it('updates a step, including its type, and deletes with renumbering', async () => {
      const pkg = await createPackage();
      const ids: number[] = [];
      for (const name of ['a', 'b', 'c']) {
        ids.push((await call<PackageStep>('POST', `${API}/${pkg.id}/steps`, cmdStep(name))).body.data.id);
      }
      const updated = await call<PackageStep>('PUT', `${API}/${pkg.id}/steps/${ids[1]}`, {
        step_name: 'b as PowerShell',
        step_type: 'POWERSHELL',
        step_details: JSON.stringify({ script_type: 'inline', script_content: 'Get-Date' }),
        timeout_seconds: 900,
      });
      expect(updated.status).toBe(200);
      expect(updated.body.data).toMatchObject({
        step_order: 2,
        step_type: 'POWERSHELL',
        timeout_seconds: 900,
        step_details: { script_type: 'inline', script_content: 'Get-Date', execution_policy: 'Bypass' },
      });
      expect((await call('DELETE', `${API}/${pkg.id}/steps/${ids[0]}`)).status).toBe(200);
      const detail = await call<PackageDetail>('GET', `${API}/${pkg.id}`);
      expect(detail.body.data.steps.map((s) => [s.step_order, s.step_name])).toEqual([
        [1, 'b as PowerShell'],
        [2, 'c'],
      ]);
      expect((await call('DELETE', `${API}/${pkg.id}/steps/${ids[0]}`)).status).toBe(404);
    });

    it('reorders with {stepOrders}, renumbering from 1', async () => {
      const pkg = await createPackage();
      const ids: number[] = [];
      for (const name of ['a', 'b', 'c']) {
        ids.push((await call<PackageStep>('POST', `${API}/${pkg.id}/steps`, cmdStep(name))).body.data.id);
      }
      const res = await call<PackageStep[]>('PUT', `${API}/${pkg.id}/steps/reorder`, {
        stepOrders: [
          { id: ids[2], step_order: 10 },
          { id: ids[0], step_order: 20 },
          { id: ids[1], step_order: 30 },
        ],
      });
      expect(res.status).toBe(200);
      expect(res.body.data.map((s) => [s.step_order, s.step_name])).toEqual([
        [1, 'c'],
        [2, 'a'],
        [3, 'b'],
      ]);
      const reloaded = await call<PackageDetail>('GET', `${API}/${pkg.id}`);
      expect(reloaded.body.data.steps.map((s) => s.step_name)).toEqual(['c', 'a', 'b']);

      for (const stepOrders of [
        [{ id: ids[0], step_order: 1 }],
        [...ids.map((id, i) => ({ id, step_order: i + 1 })), { id: ids[0], step_order: 4 }],
        [...ids.slice(0, 2).map((id, i) => ({ id, step_order: i + 1 })), { id: 999_999, step_order: 3 }],
      ]) {
        const bad = await call('PUT', `${API}/${pkg.id}/steps/reorder`, { stepOrders });
        expect(bad.status).toBe(400);
        expect(bad.body.error).toBe(packageMessages.reorderMismatch);
      }
    });
  });

  describe('duplicate, template, export and import', () => {
    it('duplicates a package with its steps, or saves it as a template', async () => {
      const file = await upload('tool.msi', 'msi bytes');
      const pkg = await createPackage({ name: 'Original' });
      await call('POST', `${API}/${pkg.id}/steps`, cmdStep('one'));
      await call('POST', `${API}/${pkg.id}/steps`, {
        step_name: 'msi',
        step_type: 'MSI',
        step_details: { source_type: 'upload', file },
      });
      const copy = await call<PackageDetail>('POST', `${API}/${pkg.id}/duplicate`, {});
      expect(copy.body.data).toMatchObject({ name: 'Original (copy)', is_template: false, step_count: 2 });
      expect(copy.body.data.steps.map((s) => s.step_name)).toEqual(['one', 'msi']);
      const template = await call<PackageDetail>('POST', `${API}/${pkg.id}/duplicate`, { is_template: true });
      expect(template.body.data).toMatchObject({ name: 'Original (template)', is_template: true });
      // The copies use the file too: it cannot be deleted until all of them are gone.
      expect((await call('DELETE', `/api/customer/files/${file.id}`)).status).toBe(409);
    });

    it('exports JSON and imports it back, refusing unknown files with a clear message', async () => {
      const file = await upload('setup.ps1', 'Write-Output 1');
      const pkg = await createPackage({ name: 'Exportable', os_version_requirement: 'Windows 10 1903+' });
      await call('POST', `${API}/${pkg.id}/steps`, {
        step_name: 'Script',
        step_type: 'POWERSHELL',
        step_details: { script_type: 'file', script_file: file },
      });
      await call('POST', `${API}/${pkg.id}/steps`, cmdStep('After'));
      const exported = await server.request<PackageExport>('GET', `${API}/${pkg.id}/export`, { token });
      expect(exported.status).toBe(200);
      expect(exported.headers.get('content-disposition')).toContain('Exportable.outpost-package.json');
      expect(exported.body).toMatchObject({
        format: 'outpost.package',
        version: 1,
        package: { name: 'Exportable', os_version_requirement: 'Windows 10 1903+' },
        files: [{ id: file.id, originalFilename: 'setup.ps1', sha256: file.sha256 }],
      });

      const imported = await call<PackageDetail>('POST', `${API}/import`, {
        ...exported.body,
        package: { ...exported.body.package, name: 'Imported' },
      });
      expect(imported.status).toBe(200);
      expect(imported.body.data).toMatchObject({ name: 'Imported', step_count: 2 });
      expect(imported.body.data.steps[0]!.step_details).toMatchObject({ script_file: { id: file.id } });

      // Globex has no such file: refused, nothing created.
      const refused = await call('POST', `${API}/import`, exported.body, globexToken);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe(packageMessages.importUnknownFile('setup.ps1', file.id));
      // Once Globex uploads the same bytes, the import finds it by its sha256.
      const theirs = await upload('setup.ps1', 'Write-Output 1', globexToken);
      const matched = await call<PackageDetail>('POST', `${API}/import`, exported.body, globexToken);
      expect(matched.status).toBe(200);
      expect(matched.body.data.steps[0]!.step_details).toMatchObject({ script_file: { id: theirs.id } });

      const junk = await call('POST', `${API}/import`, { hello: 'world' });
      expect(junk.status).toBe(400);
      expect(junk.body.error).toBe(packageMessages.importInvalid);
    });
  });
});

describe('demo packages', () => {
  it('seeds realistic Acme packages and a template, valid against the catalogue', async () => {
    const server = await startTestServer();
    await server.seedDemo();
    const token = (await server.devSignIn('admin@acme.example')).token;
    const list = await server.request<Envelope<ListData<PackageSummary>>>('GET', API, { token });
    const names = list.body.data.data.map((p) => p.name);
    expect(names).toEqual(
      expect.arrayContaining(['7-Zip 24.09 (x64)', 'IT tools folder', 'New workstation baseline']),
    );
    expect(list.body.data.data.filter((p) => p.is_template).map((p) => p.name)).toEqual([
      'New workstation baseline',
    ]);
    const sevenZip = list.body.data.data.find((p) => p.name.startsWith('7-Zip'))!;
    const detail = await server.request<Envelope<PackageDetail>>('GET', `${API}/${sevenZip.id}`, { token });
    const msi = detail.body.data.steps[0]!.step_details.file as { id: number; originalFilename: string };
    expect(msi.originalFilename).toContain('PLACEHOLDER');
    const download = await fetch(`${server.url}/api/customer/files/${msi.id}/download`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await download.text()).toContain('NOT a Windows Installer package');
    // Globex gets none of them.
    const globex = (await server.devSignIn('admin@globex.example')).token;
    const theirs = await server.request<Envelope<ListData<PackageSummary>>>('GET', API, { token: globex });
    expect(theirs.body.data.pagination.total).toBe(0);
    await server.close();
  });
});

describe('package delete while deployments use it', () => {
  it('is refused with 409 when a deployment counter reports pending or running deployments', async () => {
    // The deployments area plugs its counter in through packagesRoutes' options; this test plugs a
    // fake one in the same way, proving the refusal path and its message.
    const server = await startTestServer();
    await server.seedDemo();
    const token = (await server.devSignIn('admin@acme.example')).token;
    const created = await server.request<Envelope<PackageDetail>>('POST', API, {
      token,
      body: { name: 'Busy' },
    });
    const busyId = created.body.data.id;
    const { createPackagesService } = await import('./packages.service');
    const service = createPackagesService({
      db: server.database.db,
      activeDeploymentCounters: [
        (_tx, _tenantId, packageId) => Promise.resolve(packageId === busyId ? 2 : 0),
      ],
    });
    const ctx = {
      sessionId: null,
      identityId: null,
      userId: 1,
      tenantId: 1,
      tenantName: 'Acme Corp',
      email: 'admin@acme.example',
      name: 'Alex Morgan',
      role: 'tenant_admin' as const,
      siteAccessType: 'all' as const,
      siteIds: [],
      ip: '127.0.0.1',
      userAgent: null,
    };
    await expect(service.remove(ctx, busyId)).rejects.toMatchObject({
      statusCode: 409,
      message: packageMessages.packageInUse(2),
    });
    expect((await server.request('GET', `${API}/${busyId}`, { token })).status).toBe(200);
    await server.close();
  });
});
