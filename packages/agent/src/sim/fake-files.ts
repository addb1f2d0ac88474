import { Readable, Writable } from 'node:stream';
import type { AgentRemoteMessage, FsEntry } from '@outpost/contract/agent-protocol';
import { failed, fetchBytes, putBytes } from '../remote/file-transfers';
import type { TransferCredentials } from '../remote/file-transfers';
import { absolutePath } from '../remote/fs-list';
import type { Platform } from '../remote/fs-list';
import type { FilesMessage } from '../remote/remote-access';

// The simulator's file system for the Files tab (docs/product/remote-access.md#file-transfer): a
// few folders and files per virtual device, so the demo and the end-to-end tests browse, download
// and upload without a real machine. A download streams generated text of the file's size; an
// upload is fetched over the real agent route, verified against its sha256 and discarded (its
// name and size then show in the folder). Nothing touches the disk.

type FakeNode = { kind: 'dir'; children: Map<string, FakeNode> } | { kind: 'file'; size: number };

const MODIFIED = '2026-11-20T09:30:00.000Z';

function dir(entries: Record<string, FakeNode>): FakeNode {
  return { kind: 'dir', children: new Map(Object.entries(entries)) };
}
const file = (size: number): FakeNode => ({ kind: 'file', size });

function windowsTree(user: string): FakeNode {
  return dir({
    'C:': dir({
      Users: dir({
        [user]: dir({
          Desktop: dir({ 'notes.txt': file(1_204) }),
          Documents: dir({
            'Quarterly report.docx': file(48_320),
            'budget.xlsx': file(22_015),
            Projects: dir({ 'readme.md': file(2_048) }),
          }),
          Downloads: dir({ 'setup.log': file(9_876) }),
        }),
      }),
      ProgramData: dir({ Outpost: dir({ 'agent.log': file(65_536) }) }),
      Windows: dir({
        'win.ini': file(92),
        System32: dir({ drivers: dir({ etc: dir({ hosts: file(824) }) }) }),
      }),
      Temp: dir({}),
    }),
  });
}

function unixTree(user: string): FakeNode {
  return dir({
    Users: dir({
      [user]: dir({
        Desktop: dir({ 'notes.txt': file(1_204) }),
        Documents: dir({
          'Quarterly report.pages': file(48_320),
          Projects: dir({ 'readme.md': file(2_048) }),
        }),
        Downloads: dir({ 'setup.log': file(9_876) }),
      }),
    }),
    etc: dir({ hosts: file(213) }),
    tmp: dir({}),
    var: dir({ log: dir({ 'system.log': file(131_072) }) }),
  });
}

/** Generated text of `size` bytes (the same for the same path). */
function contentOf(filePath: string, size: number): Readable {
  const line = Buffer.from(`Outpost demo file ${filePath}: simulated contents.\n`);
  let left = size;
  return new Readable({
    read() {
      if (left <= 0) {
        this.push(null);
        return;
      }
      const n = Math.min(left, 64 * 1024);
      const chunk = Buffer.alloc(n);
      for (let i = 0; i < n; i += line.length) {
        line.copy(chunk, i, 0, Math.min(line.length, n - i));
      }
      left -= n;
      this.push(chunk);
    },
  });
}

const discard = () =>
  new Writable({
    write(_chunk, _encoding, callback) {
      callback();
    },
  });

/** The files handler of a virtual device enrolled with `identity` on `server`. */
export function simulatedFiles(
  server: string,
  identity: { device_guid: string; agent_secret: string },
  device: { facts: { osType: string }; users: string[] },
): (message: FilesMessage, send: (message: AgentRemoteMessage) => void) => void {
  const creds: TransferCredentials = {
    server,
    deviceGuid: identity.device_guid,
    agentSecret: identity.agent_secret,
  };
  const user = device.users[0] ?? 'user';
  const platform: Platform = device.facts.osType === 'windows' ? 'win32' : 'posix';
  const root = platform === 'win32' ? windowsTree(user) : unixTree(user);
  const sep = platform === 'win32' ? '\\' : '/';
  const parts = (p: string) => absolutePath(p, platform).split(/[\\/]/).filter(Boolean);
  const find = (p: string): FakeNode | null => {
    let node: FakeNode | null = root;
    for (const part of parts(p)) {
      node =
        node?.kind === 'dir'
          ? (node.children.get(part) ?? node.children.get(part.toUpperCase()) ?? null)
          : null;
    }
    return node;
  };

  function list(requestId: string, requested: string): AgentRemoteMessage {
    if (platform === 'win32' && (requested === '' || requested === '/' || requested === '\\')) {
      return {
        type: 'fs_list_result',
        requestId,
        path: '',
        entries: [{ name: 'C:\\', kind: 'dir', size: null, modifiedAt: null }],
      };
    }
    const at = absolutePath(requested, platform);
    const node = find(requested);
    if (node?.kind !== 'dir') {
      const error = node ? `Not a folder: ${at}` : `No such file or folder: ${at}`;
      return { type: 'fs_list_result', requestId, path: at, entries: [], error };
    }
    const entries: FsEntry[] = [...node.children].map(([name, child]) => ({
      name,
      kind: child.kind,
      size: child.kind === 'file' ? child.size : null,
      modifiedAt: MODIFIED,
    }));
    return { type: 'fs_list_result', requestId, path: at, entries };
  }

  const running = new Map<string, AbortController>();
  function transfer(
    transferId: string,
    send: (m: AgentRemoteMessage) => void,
    work: (s: AbortSignal) => Promise<AgentRemoteMessage>,
  ) {
    const abort = new AbortController();
    running.set(transferId, abort);
    void work(abort.signal)
      .catch((err: unknown) => failed(transferId, err))
      .then((status) => {
        running.delete(transferId);
        send(status);
      });
  }

  return (message, send) => {
    switch (message.type) {
      case 'fs_list':
        send(list(message.requestId, message.path));
        return;
      case 'file_send':
        transfer(message.transferId, send, async (signal) => {
          const node = find(message.path);
          if (node?.kind !== 'file') {
            return failed(message.transferId, `Not a file: ${absolutePath(message.path, platform)}`);
          }
          const source = contentOf(message.path, node.size);
          return putBytes(creds, message.transferId, source, node.size, signal);
        });
        return;
      case 'file_receive':
        transfer(message.transferId, send, async (signal) => {
          const names = parts(message.path);
          const name = names.pop() ?? '';
          const folderPath = platform === 'win32' ? names.join(sep) + sep : sep + names.join(sep);
          const folder = find(folderPath);
          if (folder?.kind !== 'dir' || !name) {
            return failed(message.transferId, `Not a folder: ${folderPath}`);
          }
          if (folder.children.has(name) && !message.overwrite) {
            return failed(message.transferId, `A file with this name already exists: ${message.path}`);
          }
          const got = await fetchBytes(creds, message, discard, signal);
          if ('refused' in got) {
            return failed(message.transferId, got.refused);
          }
          folder.children.set(name, file(got.size));
          return { type: 'file_status', transferId: message.transferId, ok: true, ...got };
        });
        return;
      case 'file_cancel':
        running.get(message.transferId)?.abort();
        return;
    }
  };
}
