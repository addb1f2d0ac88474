import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditListResponse } from '@outpost/contract/audit';
import { AGENT_CAPABILITIES, AGENT_DEVICE_HEADER } from '@outpost/contract/agent-protocol';
import { fileTransferMessages } from '@outpost/contract/file-transfers';
import type { FileTransfer, FsListing } from '@outpost/contract/file-transfers';
import { remoteMessages } from '@outpost/contract/remote-access';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { createEnrollmentToken, enroll, eventually, facts, onlineAgent } from '../../../test/support/live';
import type { AgentSocket } from '../../../test/support/live';
import type { Envelope } from '../../../test/support/policies';
import { eq } from 'drizzle-orm';
import { devices, fileTransfers } from '../../db/schema';
import { DEMO } from '../demo/demo.seed';
import { createLocalBlobStore } from '../files/blob-store';
import { createFileTransfersService } from './file-transfers.service';

// docs/product/remote-access.md#file-transfer, with a scripted agent socket: what the server does
// with the agent's answers (checksums, sizes, refusals), who may reach a device's files, and what
// happens to the temporary bytes. The real agent is in packages/system-tests (file-transfer).

const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

describe('file transfer (server side)', () => {
  let server: TestServer;
  let admin: string;
  let limited: string;
  let globex: string;
  let agent: AgentSocket;
  let creds: { device_guid: string; agent_secret: string };
  let deviceId = 0;

  const api = <T>(method: string, path: string, token: string, body?: unknown) =>
    server.request<Envelope<T>>(method, path, { token, body });
  const agentCall = (method: string, path: string, body?: Buffer) =>
    fetch(server.url + path, {
      method,
      headers: {
        [AGENT_DEVICE_HEADER]: creds.device_guid,
        authorization: `Bearer ${creds.agent_secret}`,
        'content-type': 'application/octet-stream',
      },
      body,
    });
  const upload = (token: string, path: string, bytes: Buffer, overwrite = false) =>
    fetch(
      `${server.url}/api/customer/devices/${deviceId}/files/upload?path=${encodeURIComponent(path)}&overwrite=${overwrite}`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
        body: bytes,
      },
    );
  const transfer = async (id: string) =>
    (await api<FileTransfer>('GET', `/api/customer/file-transfers/${id}`, admin)).body.data;

  beforeAll(async () => {
    server = await startTestServer();
    const seeded = (await server.seedDemo())!;
    admin = (await server.devSignIn(DEMO.adminEmail)).token;
    globex = (await server.devSignIn('admin@globex.example')).token;
    const made = await api('POST', '/api/customer/users', admin, {
      email: 'files-limited@acme.example',
      name: 'Limited',
      role: 'tenant_admin',
      site_access_type: 'specific',
      site_ids: [seeded.siteIds[1]],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    limited = (await server.devSignIn('files-limited@acme.example')).token;
    const token = (await createEnrollmentToken(server, admin, { site_id: seeded.siteIds[0] })).token;
    creds = (await enroll(server, token, facts({ hostname: 'files-1', machineId: 'mid-files-1' }))).body.data;
    agent = await onlineAgent(server.url, creds, {
      hostname: 'files-1',
      capabilities: [AGENT_CAPABILITIES.remote],
    });
    await agent.waitFor('remote_policy');
    const [row] = await server.database.db
      .select({ id: devices.id })
      .from(devices)
      .where(eq(devices.deviceGuid, creds.device_guid));
    deviceId = row!.id;
  });
  afterAll(async () => {
    agent?.ws.close();
    await server?.close();
  });

  it('lists a folder through the agent, folders first', async () => {
    const listing = api<FsListing>('GET', `/api/customer/devices/${deviceId}/files?path=/srv`, admin);
    const asked = await agent.waitFor('fs_list');
    expect(asked.path).toBe('/srv');
    agent.send({
      type: 'fs_list_result',
      requestId: asked.requestId,
      path: '/srv',
      entries: [
        { name: 'b.txt', kind: 'file', size: 3, modifiedAt: null },
        { name: 'a', kind: 'dir', size: null, modifiedAt: null },
      ],
    });
    const res = await listing;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.entries.map((e) => e.name)).toEqual(['a', 'b.txt']);
  });

  it('a download: the agent PUTs the bytes, its checksum matches, the browser fetches them once', async () => {
    const bytes = crypto.randomBytes(100_000);
    const started = await api<FileTransfer>(
      'POST',
      `/api/customer/devices/${deviceId}/files/download`,
      admin,
      {
        path: '/srv/data.bin',
      },
    );
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const ask = await agent.waitFor('file_send', (m) => m.transferId === started.body.data.id);
    expect(ask.path).toBe('/srv/data.bin');
    const put = await agentCall('PUT', `/api/agent/transfers/${ask.transferId}`, bytes);
    expect(put.status, await put.clone().text()).toBe(200);
    agent.send({
      type: 'file_status',
      transferId: ask.transferId,
      ok: true,
      size: bytes.length,
      sha256: sha(bytes),
    });
    await eventually(async () => (await transfer(ask.transferId)).status === 'ready');

    const content = await fetch(`${server.url}/api/customer/file-transfers/${ask.transferId}/content`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(content.status).toBe(200);
    expect(content.headers.get('x-checksum-sha256')).toBe(sha(bytes));
    expect(content.headers.get('content-disposition')).toContain('data.bin');
    expect(sha(Buffer.from(await content.arrayBuffer()))).toBe(sha(bytes));
    await eventually(async () => (await transfer(ask.transferId)).status === 'completed');
    const again = await api('GET', `/api/customer/file-transfers/${ask.transferId}/content`, admin);
    expect(again.status).toBe(409);
  });

  it('a checksum that does not match fails the transfer', async () => {
    const bytes = Buffer.from('what the server got');
    const started = await api<FileTransfer>(
      'POST',
      `/api/customer/devices/${deviceId}/files/download`,
      admin,
      {
        path: '/srv/x',
      },
    );
    const id = started.body.data.id;
    await agent.waitFor('file_send', (m) => m.transferId === id);
    expect((await agentCall('PUT', `/api/agent/transfers/${id}`, bytes)).status).toBe(200);
    agent.send({
      type: 'file_status',
      transferId: id,
      ok: true,
      size: bytes.length,
      sha256: sha(Buffer.from('else')),
    });
    const failed = await eventually(async () => {
      const t = await transfer(id);
      return t.status === 'failed' ? t : null;
    });
    expect(failed.error).toBe(fileTransferMessages.checksumMismatch);
    expect((await api('GET', `/api/customer/file-transfers/${id}/content`, admin)).status).toBe(409);
  });

  it('refuses bytes beyond the largest file with 413, both ways', async () => {
    expect(
      (await api('PUT', '/api/customer/settings/remote-access', admin, { max_file_bytes: 1024 * 1024 }))
        .status,
    ).toBe(200);
    const big = Buffer.alloc(1024 * 1024 + 10, 7);
    const up = await upload(admin, '/srv/big.bin', big);
    expect(up.status).toBe(413);
    expect(((await up.json()) as { error: string }).error).toContain('larger than the largest file');

    const started = await api<FileTransfer>(
      'POST',
      `/api/customer/devices/${deviceId}/files/download`,
      admin,
      {
        path: '/srv/big.bin',
      },
    );
    const id = started.body.data.id;
    expect((await agent.waitFor('file_send', (m) => m.transferId === id)).maxBytes).toBe(1024 * 1024);
    // a chunked body (no declared length) is cut where it passes the limit
    const put = await fetch(`${server.url}/api/agent/transfers/${id}`, {
      method: 'PUT',
      headers: {
        [AGENT_DEVICE_HEADER]: creds.device_guid,
        authorization: `Bearer ${creds.agent_secret}`,
        'content-type': 'application/octet-stream',
      },
      body: new Blob([big]).stream(),
      duplex: 'half',
    });
    expect(put.status).toBe(413);
    expect((await transfer(id)).status).toBe('failed');
    await api('PUT', '/api/customer/settings/remote-access', admin, {
      max_file_bytes: 2 * 1024 * 1024 * 1024,
    });
  });

  it('an upload: stored and hashed, the agent fetches it and says where it is', async () => {
    const bytes = crypto.randomBytes(50_000);
    const res = await upload(admin, '/srv/in.bin', bytes, true);
    expect(res.status).toBe(200);
    const t = ((await res.json()) as Envelope<FileTransfer>).data;
    expect(t).toMatchObject({
      direction: 'upload',
      size: bytes.length,
      sha256: sha(bytes),
      status: 'pending',
    });
    const ask = await agent.waitFor('file_receive', (m) => m.transferId === t.id);
    expect(ask).toMatchObject({
      path: '/srv/in.bin',
      size: bytes.length,
      sha256: sha(bytes),
      overwrite: true,
    });
    const got = await agentCall('GET', `/api/agent/transfers/${t.id}`);
    expect(got.status).toBe(200);
    expect(sha(Buffer.from(await got.arrayBuffer()))).toBe(sha(bytes));
    agent.send({ type: 'file_status', transferId: t.id, ok: true, size: bytes.length, sha256: sha(bytes) });
    await eventually(async () => (await transfer(t.id)).status === 'completed');
    // the bytes are gone from the server
    expect((await agentCall('GET', `/api/agent/transfers/${t.id}`)).status).toBe(409);

    const audit = await api<AuditListResponse>('GET', '/api/customer/audit?limit=100', admin);
    const actions = audit.body.data.data.map((l) => l.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'Upload File To Device',
        'File Upload Ended',
        'Download File From Device',
        'File Download Ended',
      ]),
    );
    expect(JSON.stringify(audit.body.data.data)).toContain(sha(bytes));
  });

  it('cancel tells the agent; another tenant and another site get 404; turned off is 403', async () => {
    const started = await api<FileTransfer>(
      'POST',
      `/api/customer/devices/${deviceId}/files/download`,
      admin,
      {
        path: '/srv/slow',
      },
    );
    const id = started.body.data.id;
    expect((await api('GET', `/api/customer/file-transfers/${id}`, globex)).status).toBe(404);
    expect((await api('GET', `/api/customer/file-transfers/${id}`, limited)).status).toBe(404);
    expect((await api('GET', `/api/customer/devices/${deviceId}/files`, globex)).status).toBe(404);
    expect((await api('GET', `/api/customer/devices/${deviceId}/files`, limited)).status).toBe(404);
    const cancelled = await api<FileTransfer>('POST', `/api/customer/file-transfers/${id}/cancel`, admin);
    expect(cancelled.body.data.status).toBe('cancelled');
    await agent.waitFor('file_cancel', (m) => m.transferId === id);
    expect((await agentCall('PUT', `/api/agent/transfers/${id}`, Buffer.from('late'))).status).toBe(409);

    expect(
      (await api('PUT', '/api/customer/settings/remote-access', admin, { files_enabled: false })).status,
    ).toBe(200);
    const off = await api('GET', `/api/customer/devices/${deviceId}/files`, admin);
    expect(off.status).toBe(403);
    expect(off.body).toMatchObject({ error: remoteMessages.filesOff });
    expect((await upload(admin, '/srv/z', Buffer.from('z'))).status).toBe(403);
    await api('PUT', '/api/customer/settings/remote-access', admin, { files_enabled: true });
  });

  it('a device that does not answer: a clear 504 after the wait', async () => {
    const res = await api('GET', `/api/customer/devices/${deviceId}/files?path=/quiet`, admin);
    expect(agent.ofType('fs_list').some((m) => m.path === '/quiet')).toBe(true);
    expect(res.status).toBe(504);
    expect(res.body).toMatchObject({ error: fileTransferMessages.noAnswer });
  }, 30_000);

  it('the sweep removes bytes older than the retention and ends what never finished', async () => {
    const started = await api<FileTransfer>(
      'POST',
      `/api/customer/devices/${deviceId}/files/download`,
      admin,
      {
        path: '/srv/forgotten',
      },
    );
    const id = started.body.data.id;
    await agent.waitFor('file_send', (m) => m.transferId === id);
    expect((await agentCall('PUT', `/api/agent/transfers/${id}`, Buffer.from('left behind'))).status).toBe(
      200,
    );
    await server.database.db
      .update(fileTransfers)
      .set({ createdAt: new Date(Date.now() - 2 * 3600_000) })
      .where(eq(fileTransfers.id, id));
    // the sweep of any instance (they share the database and the blob folder)
    const other = createFileTransfersService({
      db: server.database.db,
      bus: server.app.bus,
      blobStore: createLocalBlobStore(server.config.blobDir),
      remoteAccess: { authorize: () => Promise.reject(new Error('not used')) },
      log: server.app.log,
    });
    await other.sweep();
    const swept = await transfer(id);
    expect(swept).toMatchObject({ status: 'failed', error: fileTransferMessages.timedOut });
    const [row] = await server.database.db.select().from(fileTransfers).where(eq(fileTransfers.id, id));
    expect(row?.blobKey).toBeNull();
  });
});
