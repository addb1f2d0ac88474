import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageMessages } from '@outpost/contract/messages';
import { PACKAGE_EXPORT_FORMAT, PACKAGE_EXPORT_VERSION } from '@outpost/contract/packages';
import type { PackageDetail, PackageStep } from '@outpost/contract/packages';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';

// SECURITY.md "Download from URL": an EXE or MSI step that downloads over plain http:// must give
// the Expected SHA-256 of the file, on every route that writes steps (add, edit, import); https://
// may give it too. Bad input is a 400 with the contract's message, never a 500.

type Envelope<T> = { success: boolean; data: T; error?: string };
const API = '/api/customer/deployment-packages';
const HASH = 'ab'.repeat(32);

describe('EXE/MSI "Download from URL" needs https:// or an Expected SHA-256', () => {
  let server: TestServer;
  let token: string;
  const call = <T>(method: string, path: string, body?: unknown) =>
    server.request<Envelope<T>>(method, path, { token, body });

  beforeAll(async () => {
    server = await startTestServer();
    await server.seedDemo();
    token = (await server.devSignIn('admin@acme.example')).token;
  });
  afterAll(() => server?.close());

  async function newPackage(): Promise<PackageDetail> {
    const res = await call<PackageDetail>('POST', API, {
      name: `Downloads ${Math.random().toString(36).slice(2)}`,
    });
    expect(res.status).toBe(200);
    return res.body.data;
  }
  const urlStep = (type: 'EXE' | 'MSI', details: Record<string, unknown>) => ({
    step_name: 'Download',
    step_type: type,
    step_details: JSON.stringify({ source_type: 'url', ...details }),
  });

  it.each([
    ['EXE', { url: 'http://intranet.example/setup.exe' }, packageMessages.stepHttpNeedsSha256],
    ['MSI', { url: 'http://intranet.example/app.msi', sha256: '' }, packageMessages.stepHttpNeedsSha256],
    ['EXE', { url: 'https://example.com/setup.exe', sha256: 'not-a-hash' }, packageMessages.stepSha256Format],
    [
      'MSI',
      { url: 'http://intranet.example/app.msi', sha256: 'z'.repeat(64) },
      packageMessages.stepSha256Format,
    ],
  ] as const)('adding %s %j answers 400 “%s”', async (type, details, message) => {
    const pkg = await newPackage();
    const res = await call('POST', `${API}/${pkg.id}/steps`, urlStep(type, details));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it('accepts http:// with the hash, and https:// with or without it; the hash is kept', async () => {
    const pkg = await newPackage();
    for (const [type, details] of [
      ['EXE', { url: 'http://intranet.example/setup.exe', sha256: HASH.toUpperCase() }],
      ['MSI', { url: 'https://example.com/app.msi' }],
      ['MSI', { url: 'https://example.com/app.msi', sha256: HASH }],
    ] as const) {
      const res = await call<PackageStep>('POST', `${API}/${pkg.id}/steps`, urlStep(type, details));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const detail = (await call<PackageDetail>('GET', `${API}/${pkg.id}`)).body.data;
    expect(detail.steps.map((s) => s.step_details.sha256)).toEqual([HASH.toUpperCase(), undefined, HASH]);
  });

  it('editing a step to a plain http:// URL without the hash is refused too', async () => {
    const pkg = await newPackage();
    const added = await call<PackageStep>(
      'POST',
      `${API}/${pkg.id}/steps`,
      urlStep('EXE', { url: 'https://example.com/setup.exe' }),
    );
    const res = await call(
      'PUT',
      `${API}/${pkg.id}/steps/${added.body.data.id}`,
      urlStep('EXE', { url: 'http://example.com/setup.exe' }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(packageMessages.stepHttpNeedsSha256);
  });

  it('an imported package with such a step is refused whole', async () => {
    const res = await call('POST', `${API}/import`, {
      format: PACKAGE_EXPORT_FORMAT,
      version: PACKAGE_EXPORT_VERSION,
      package: { name: 'Imported downloads' },
      steps: [
        {
          step_name: 'Download',
          step_type: 'EXE',
          step_details: { source_type: 'url', url: 'http://intranet.example/setup.exe' },
        },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(packageMessages.stepHttpNeedsSha256);
  });
});
