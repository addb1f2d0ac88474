import { describe, expect, it } from 'vitest';
import type { AgentRemoteMessage } from '@outpost/contract/agent-protocol';
import { REFUSED_FILES, REFUSED_TERMINAL, RemoteAccess } from './remote-access';
import type { FilesMessage, TerminalMessage } from './remote-access';

const SESSION = '3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b';
const TRANSFER = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const open = {
  type: 'terminal_open' as const,
  sessionId: SESSION,
  shell: 'default' as const,
  cols: 80,
  rows: 24,
  requestedBy: 'Ada',
  consent: false,
  banner: false,
  idleTimeoutSeconds: 900,
  maxSeconds: 3600,
  maxBytesPerSecond: 1_000_000,
};
const policy = (terminal: boolean, files: boolean) =>
  ({ type: 'remote_policy', terminal, files, consent: false, banner: false }) as const;

function setup(allowedHere = true) {
  const sent: AgentRemoteMessage[] = [];
  const terminal: TerminalMessage[] = [];
  const files: FilesMessage[] = [];
  const remote = new RemoteAccess(
    (m) => sent.push(m),
    { terminal: (m) => terminal.push(m), files: (m) => files.push(m) },
    allowedHere,
  );
  return { remote, sent, terminal, files };
}

describe('remote access on the agent', () => {
  it('refuses everything until the server sent a policy', () => {
    const { remote, sent, terminal, files } = setup();
    remote.onMessage(open);
    remote.onMessage({ type: 'fs_list', requestId: 'r1', path: '/' });
    remote.onMessage({ type: 'file_send', transferId: TRANSFER, path: '/etc/hosts', maxBytes: 10 });
    expect(terminal).toEqual([]);
    expect(files).toEqual([]);
    expect(sent).toEqual([
      { type: 'terminal_exit', sessionId: SESSION, reason: 'refused', message: REFUSED_TERMINAL },
      { type: 'fs_list_result', requestId: 'r1', path: '/', entries: [], error: REFUSED_FILES },
      { type: 'file_status', transferId: TRANSFER, ok: false, error: REFUSED_FILES },
    ]);
  });

  it('hands each kind to its handler only while the policy allows it', () => {
    const { remote, sent, terminal, files } = setup();
    remote.onMessage(policy(true, false));
    remote.onMessage(open);
    remote.onMessage({ type: 'terminal_input', sessionId: SESSION, seq: 1, data: 'bHMK' });
    remote.onMessage({ type: 'fs_list', requestId: 'r2', path: '/tmp' });
    expect(terminal.map((m) => m.type)).toEqual(['terminal_open', 'terminal_input']);
    expect(files).toEqual([]);
    expect(sent.map((m) => m.type)).toEqual(['fs_list_result']);

    remote.onMessage(policy(false, true));
    remote.onMessage({ type: 'terminal_input', sessionId: SESSION, seq: 2, data: 'bHMK' });
    remote.onMessage({ type: 'fs_list', requestId: 'r3', path: '/tmp' });
    expect(terminal).toHaveLength(2);
    expect(files.map((m) => m.type)).toEqual(['fs_list']);
  });

  it('refuses everything when the device owner turned remote access off, whatever the policy', () => {
    const { remote, sent, terminal } = setup(false);
    remote.onMessage(policy(true, true));
    remote.onMessage(open);
    expect(terminal).toEqual([]);
    expect(sent[0]).toMatchObject({ type: 'terminal_exit', reason: 'refused' });
  });
});
