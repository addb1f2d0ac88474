import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { UploadedFile } from '@outpost/contract/files';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { auditLogs, files } from '../../db/schema/index';

// Hostile upload names: `../`, Windows paths, control characters, CR/LF meant to inject
// a response header, quotes meant to end the Content-Disposition parameter. The name is kept as a
// display name only (last path segment, control characters removed); the blob is stored under a
// server-generated key, and the download's Content-Disposition carries an ASCII fallback and the
// exact name RFC 5987-encoded, so no name can add a header or a parameter.

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };

/** A multipart upload whose file name is sent exactly as given, RFC 5987-encoded (busboy decodes it). */
async function rawUpload(server: TestServer, token: string, name: string) {
  const boundary = '----outpost-test-boundary';
  const encoded = Array.from(Buffer.from(name, 'utf8'), (b) => `%${b.toString(16).padStart(2, '0')}`).join(
    '',
  );
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''${encoded}\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    Buffer.from('payload'),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await fetch(`${server.url}/api/customer/files`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    body,
  });
  return { status: res.status, body: (await res.json()) as Envelope<UploadedFile> };
}

describe('upload names with paths and control characters', () => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer();
    await server.seedDemo();
    token = (await server.devSignIn('admin@acme.example')).token;
  });
  afterAll(async () => server?.close());

  it.each([
    ['../../etc/passwd', 'passwd'],
    ['..\\..\\Windows\\win.ini', 'win.ini'],
    ['C:\\Users\\x\\..\\evil.exe', 'evil.exe'],
    ['/absolute/tool.sh', 'tool.sh'],
    ['tab\tbell\u0007esc\u001b[31m.txt', 'tabbellesc[31m.txt'],
    ['"; filename="evil.exe', '"; filename="evil.exe'],
    ['résumé ✓.ps1', 'résumé ✓.ps1'],
  ])('%j is stored as %j, under a generated key, and served with a safe header', async (sent, shown) => {
    const up = await rawUpload(server, token, sent);
    expect(up.status).toBe(200);
    expect(up.body.data.originalFilename).toBe(shown);
    const [row] = await server.database.db.select().from(files).where(eq(files.id, up.body.data.id));
    // the blob's path is the server's key, never the client's name
    expect(row!.storageKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(fs.readdirSync(server.config.blobDir, { recursive: true }).map(String)).not.toContain(shown);

    const res = await fetch(`${server.url}/api/customer/files/${up.body.data.id}/download`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toBeNull();
    const disposition = res.headers.get('content-disposition')!;
    // one attachment, one quoted ASCII fallback without quotes or backslashes, one encoded name
    expect(disposition).toMatch(
      /^attachment; filename="[\x20-\x21\x23-\x5b\x5d-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9%!#$&+.^_`|~-]*$/,
    );
    const exact = decodeURIComponent(disposition.split("filename*=UTF-8''")[1]!);
    expect(exact).toBe(shown);
    expect(await res.text()).toBe('payload');
  });

  it.each(['..', '.', '../', 'a/..', '\u0001\u0002', ' \t ', 'dir/'])(
    'refuses %j, a name with nothing left to show, with 400',
    async (sent) => {
      const before = await server.database.db.select().from(files);
      const up = await rawUpload(server, token, sent);
      expect(up.status).toBe(400);
      expect(up.body).toMatchObject({ success: false, code: 'FILE_NAME_MISSING' });
      expect(await server.database.db.select().from(files)).toHaveLength(before.length);
    },
  );

  it('refuses a name carrying CR/LF (the multipart parser sees no file part), storing nothing', async () => {
    const before = await server.database.db.select().from(files);
    for (const sent of ['a\r\nSet-Cookie: stolen=1\r\n.txt', ' \r\n ']) {
      const up = await rawUpload(server, token, sent);
      expect(up.status).toBe(400);
      expect(up.body).toMatchObject({ success: false, code: 'FILE_MISSING' });
    }
    expect(await server.database.db.select().from(files)).toHaveLength(before.length);
  });

  it('keeps a bidi override in the name, and writes the audit entry with it escaped', async () => {
    const res = await rawUpload(server, token, 'invoice\u202Egpj.exe');
    expect(res.status).toBe(200);
    // the exact name is kept (the download's Content-Disposition and the API carry it); what is
    // shown to people escapes it (SECURITY.md "Bidi control characters in file names")
    expect(res.body.data.originalFilename).toBe('invoice\u202Egpj.exe');
    const [entry] = await server.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.resourceType, 'file'), eq(auditLogs.resourceId, String(res.body.data.id))));
    expect(entry!.details).toBe('Uploaded invoice\\u202Egpj.exe (7 bytes)');
  });
});
