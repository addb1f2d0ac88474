import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileReceiveMessage } from '@outpost/contract/agent-protocol';
import { receiveFile, sendFile } from './file-transfers';
import { absolutePath, listFolder } from './fs-list';

// docs/agent.md "Remote access": the agent's side of file transfer against a stand-in server
// that serves and takes bytes over HTTP.

const sha = (b: Buffer | string) => crypto.createHash('sha256').update(b).digest('hex');

describe('file transfer on the agent', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-agent-files-'));
  let server: http.Server;
  let base = '';
  let served = Buffer.from('');
  let received: Buffer | null = null;
  const creds = () => ({ server: base, deviceGuid: crypto.randomUUID(), agentSecret: 'secret' });
  const receive = (overrides: Partial<FileReceiveMessage> = {}): FileReceiveMessage => ({
    type: 'file_receive',
    transferId: crypto.randomUUID(),
    path: path.join(dir, 'in', 'file.txt'),
    size: served.length,
    sha256: sha(served),
    overwrite: false,
    ...overrides,
  });

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.method === 'GET') {
        res.end(served);
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received = Buffer.concat(chunks);
        res.setHeader('content-type', 'application/json');
        res.end('{"success":true}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    fs.mkdirSync(path.join(dir, 'in', 'folder'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'in', 'b.txt'), 'bee');
    fs.symlinkSync(path.join(dir, 'in', 'b.txt'), path.join(dir, 'in', 'link'));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists a folder with lstat: kinds, sizes, links not followed, bounded', async () => {
    const listed = await listFolder('r1', path.join(dir, 'in', 'folder', '..'), 'posix');
    expect(listed.path).toBe(path.join(dir, 'in'));
    const byName = Object.fromEntries(listed.entries.map((e) => [e.name, e]));
    expect(byName.folder?.kind).toBe('dir');
    expect(byName['b.txt']).toMatchObject({ kind: 'file', size: 3 });
    expect(byName.link?.kind).toBe('link');
    const bounded = await listFolder('r2', path.join(dir, 'in'), 'posix', 1);
    expect(bounded.entries).toHaveLength(1);
    expect(bounded.truncated).toBe(true);
    const missing = await listFolder('r3', path.join(dir, 'nope'), 'posix');
    expect(missing.error).toContain('No such file or folder');
  });

  it('makes paths absolute and treats them only as paths', () => {
    expect(absolutePath('etc/../tmp', 'posix')).toBe('/tmp');
    expect(absolutePath('$(reboot)', 'posix')).toBe('/$(reboot)');
    expect(absolutePath('C:\\Users\\..\\Temp', 'win32')).toBe('C:\\Temp');
    expect(absolutePath('Windows', 'win32')).toBe('C:\\Windows');
  });

  it('receives a file: verified, renamed into place', async () => {
    served = Buffer.from('the contents');
    const status = await receiveFile(creds(), receive(), new AbortController().signal, 'posix');
    expect(status).toMatchObject({ ok: true, size: served.length, sha256: sha(served) });
    expect(fs.readFileSync(path.join(dir, 'in', 'file.txt'), 'utf8')).toBe('the contents');
  });

  it('refuses to replace a file unless asked', async () => {
    served = Buffer.from('newer contents');
    const refused = await receiveFile(creds(), receive(), new AbortController().signal, 'posix');
    expect(refused.ok).toBe(false);
    expect(refused.error).toContain('already exists');
    expect(fs.readFileSync(path.join(dir, 'in', 'file.txt'), 'utf8')).toBe('the contents');
    const replaced = await receiveFile(
      creds(),
      receive({ overwrite: true }),
      new AbortController().signal,
      'posix',
    );
    expect(replaced.ok).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'in', 'file.txt'), 'utf8')).toBe('newer contents');
  });

  it('a checksum mismatch leaves nothing behind', async () => {
    served = Buffer.from('tampered bytes');
    const before = fs.readdirSync(path.join(dir, 'in')).sort();
    const status = await receiveFile(
      creds(),
      receive({ path: path.join(dir, 'in', 'other.txt'), sha256: sha('expected bytes') }),
      new AbortController().signal,
      'posix',
    );
    expect(status).toMatchObject({ ok: false, error: 'Checksum mismatch' });
    expect(fs.readdirSync(path.join(dir, 'in')).sort()).toEqual(before);
  });

  it('sends a file with its size and sha256, and refuses one beyond the limit', async () => {
    const file = path.join(dir, 'in', 'b.txt');
    const status = await sendFile(
      creds(),
      { type: 'file_send', transferId: crypto.randomUUID(), path: file, maxBytes: 1024 },
      new AbortController().signal,
      'posix',
    );
    expect(status).toMatchObject({ ok: true, size: 3, sha256: sha('bee') });
    expect(received?.toString()).toBe('bee');
    const tooBig = await sendFile(
      creds(),
      { type: 'file_send', transferId: crypto.randomUUID(), path: file, maxBytes: 2 },
      new AbortController().signal,
      'posix',
    );
    expect(tooBig.ok).toBe(false);
    const folder = await sendFile(
      creds(),
      { type: 'file_send', transferId: crypto.randomUUID(), path: dir, maxBytes: 1024 },
      new AbortController().signal,
      'posix',
    );
    expect(folder).toMatchObject({ ok: false, error: `Not a file: ${dir}` });
  });
});
