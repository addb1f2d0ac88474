import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { StorageUsage, UploadedFile } from '@outpost/contract/files';
import { formatBytes } from '@outpost/contract/files';
import { packageMessages } from '@outpost/contract/messages';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { files, tenants } from '../../db/schema/index';
import { setStorageQuota } from '../tenants/tenants.service';

// SECURITY.md R2-14: each organisation's uploads are bounded by its storage quota (its own, else
// the instance's TENANT_STORAGE_QUOTA_BYTES), checked before anything is kept, with the upload
// error's words; the usage is readable where people upload.

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };
const INSTANCE_QUOTA = 50_000;

async function upload(server: TestServer, token: string, name: string, bytes: number) {
  const form = new FormData();
  form.append('file', new Blob([crypto.randomBytes(bytes)]), name);
  const res = await fetch(`${server.url}/api/customer/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Envelope<UploadedFile> };
}

/**
 * A raw multipart upload: the file part's header, then `send` decides what follows. Answers the
 * server's status and body as soon as it answers.
 */
function rawUpload(
  server: TestServer,
  token: string,
  headers: Record<string, string>,
  send: (req: http.ClientRequest, boundary: string) => void,
) {
  const boundary = `----quota-${crypto.randomBytes(6).toString('hex')}`;
  return new Promise<{ status: number; body: Envelope<unknown> }>((resolve, reject) => {
    const req = http.request(`${server.url}/api/customer/files`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        ...headers,
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Envelope<unknown> });
        req.destroy();
      });
    });
    req.on('error', (err) =>
      err.message.includes('EPIPE') || err.message.includes('ECONNRESET') ? null : reject(err),
    );
    req.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    );
    send(req, boundary);
  });
}

describe('storage quota per organisation', () => {
  let server: TestServer;
  let token: string;
  let globexToken: string;
  let acmeId: number;

  beforeAll(async () => {
    server = await startTestServer({ env: { TENANT_STORAGE_QUOTA_BYTES: String(INSTANCE_QUOTA) } });
    const demo = await server.seedDemo();
    acmeId = demo!.acmeTenantId;
    token = (await server.devSignIn('admin@acme.example')).token;
    globexToken = (await server.devSignIn('admin@globex.example')).token;
  });
  afterAll(async () => server?.close());

  const db = () => server.database.db;
  /** the files uploaded here (the demo keeps one a package step uses) */
  const acmeFiles = async () =>
    (await db().select().from(files).where(eq(files.tenantId, acmeId))).filter((f) => f.id !== demoFileId);
  let demoFileId = 0;
  let base = 0;
  const usage = async (t = token) =>
    (await server.request<Envelope<StorageUsage>>('GET', '/api/customer/files/usage', { token: t })).body
      .data;
  const incomingLeft = () => {
    const dir = path.join(server.config.blobDir, '.incoming');
    return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  };
  const blobCount = () =>
    fs
      .readdirSync(server.config.blobDir)
      .filter((d) => d !== '.incoming')
      .flatMap((d) => fs.readdirSync(path.join(server.config.blobDir, d))).length;

  beforeEach(async () => {
    const [demoFile] = await db().select().from(files).where(eq(files.tenantId, acmeId)).limit(1);
    demoFileId ||= demoFile?.id ?? -1;
    for (const f of await acmeFiles()) {
      await server.request('DELETE', `/api/customer/files/${f.id}`, { token });
    }
    await setStorageQuota(db(), { tenantId: String(acmeId), quota: '10000' });
    base = (await usage()).used_bytes;
    await setStorageQuota(db(), { tenantId: String(acmeId), quota: String(base + 10_000) });
  });

  it('refuses an upload that does not fit in what is left, with the upload error, and keeps nothing', async () => {
    const before = await usage();
    expect(before).toMatchObject({ used_bytes: base, quota_bytes: base + 10_000 });
    const first = await upload(server, token, 'first.bin', 6000);
    expect(first.status).toBe(200);
    const blobs = blobCount();
    const second = await upload(server, token, 'second.bin', 6000);
    expect(second.status).toBe(413);
    expect(second.body.code).toBe('STORAGE_QUOTA_EXCEEDED');
    expect(second.body.error).toBe(
      packageMessages.storageQuotaExceeded(formatBytes(4000), formatBytes(base + 10_000)),
    );
    expect((await acmeFiles()).map((f) => f.originalFilename)).toEqual(['first.bin']);
    expect(blobCount()).toBe(blobs);
    expect(incomingLeft()).toEqual([]);
    expect(await usage()).toEqual({
      used_bytes: base + 6000,
      quota_bytes: base + 10_000,
      file_count: before.file_count + 1,
    });
    // what still fits is taken
    expect((await upload(server, token, 'third.bin', 4000)).status).toBe(200);
    expect((await usage()).used_bytes).toBe(base + 10_000);
  });

  it('refuses a declared length that cannot fit before reading the body', async () => {
    // 100 MB declared, only the part header sent: the answer comes without the rest
    const res = await rawUpload(server, token, { 'content-length': String(100_000_000) }, () => undefined);
    expect(res.status).toBe(413);
    expect(res.body.error).toBe(
      packageMessages.storageQuotaExceeded(formatBytes(10_000), formatBytes(base + 10_000)),
    );
    expect(await acmeFiles()).toEqual([]);
    expect(incomingLeft()).toEqual([]);
  });

  it('aborts a stream of undeclared length at what is left and leaves nothing half-written', async () => {
    const blobs = blobCount();
    const res = await rawUpload(server, token, { 'transfer-encoding': 'chunked' }, (req, boundary) => {
      // 30,000 bytes in chunks, more than the 10,000 left
      for (let i = 0; i < 30; i++) {
        req.write(crypto.randomBytes(1000));
      }
      req.end(`\r\n--${boundary}--\r\n`);
    });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('STORAGE_QUOTA_EXCEEDED');
    expect(await acmeFiles()).toEqual([]);
    expect(incomingLeft()).toEqual([]);
    expect(blobCount()).toBe(blobs);
  });

  it('lets only one of two uploads that fit alone but not together through', async () => {
    const blobs = blobCount();
    const results = await Promise.all([
      upload(server, token, 'a.bin', 6000),
      upload(server, token, 'b.bin', 6000),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 413]);
    expect(await acmeFiles()).toHaveLength(1);
    expect(blobCount()).toBe(blobs + 1);
    expect((await usage()).used_bytes).toBe(base + 6000);
  });

  it('uses the instance default when the operator set none, and only counts the tenant’s own files', async () => {
    await setStorageQuota(db(), { tenantId: String(acmeId), quota: 'default' });
    const [row] = await db().select().from(tenants).where(eq(tenants.id, acmeId));
    expect(row!.storageQuotaBytes).toBeNull();
    expect((await upload(server, token, 'acme.bin', 20_000)).status).toBe(200);
    expect(await usage()).toMatchObject({ used_bytes: base + 20_000, quota_bytes: INSTANCE_QUOTA });
    const globex = await usage(globexToken);
    expect(globex.quota_bytes).toBe(INSTANCE_QUOTA);
    expect((await upload(server, globexToken, 'globex.bin', 40_000 - globex.used_bytes)).status).toBe(200);
    expect((await upload(server, token, 'acme-2.bin', INSTANCE_QUOTA - base - 20_000 + 1)).status).toBe(413);
    expect((await upload(server, token, 'acme-3.bin', INSTANCE_QUOTA - base - 20_000)).status).toBe(200);
  });

  it('parses the operator’s sizes and refuses nonsense', async () => {
    await setStorageQuota(db(), { tenantId: String(acmeId), quota: '2GiB' });
    expect((await usage()).quota_bytes).toBe(2 * 1024 ** 3);
    await expect(setStorageQuota(db(), { tenantId: String(acmeId), quota: 'lots' })).rejects.toThrow(
      '--quota',
    );
    await expect(setStorageQuota(db(), { tenantId: '999999', quota: '1G' })).rejects.toThrow('not found');
  });
});
