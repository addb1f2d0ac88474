import { afterEach, describe, expect, it } from 'vitest';
import type { AgentRemoteMessage } from '@outpost/contract/agent-protocol';
import { RecordingStepExecutor } from '../actions/step-executor';
import { CANNOT_ASK, NO_USER_TO_ASK, USER_REFUSED, deviceConsent } from './consent';
import type { Consent } from './consent';
import { fakeShell } from '../sim/fake-shell';
import { PTY_UNAVAILABLE, createTerminals } from './terminals';
import { ShellUnavailable } from './terminal-shell';

// docs/agent.md "Remote access": consent before the shell, refusals with their reason, the
// banner, and sessions ending with the socket.

const ID = '3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b';
const open = (consent: boolean, shell: 'default' | 'powershell' = 'default') => ({
  type: 'terminal_open' as const,
  sessionId: ID,
  shell,
  cols: 80,
  rows: 24,
  requestedBy: 'Ada',
  consent,
  banner: true,
  idleTimeoutSeconds: 60,
  maxSeconds: 600,
  maxBytesPerSecond: 1_000_000,
});
const session = { sessionId: 's1', userName: 'ada', ipAddress: null, startedAt: '2026-11-27T10:00:00Z' };
const until = async (test: () => boolean) => {
  for (let i = 0; i < 200 && !test(); i += 1) {
    await new Promise((r) => setTimeout(r, 5));
  }
};

function setup(consent: Consent, spawner: 'fake' | 'none' = 'fake') {
  const sent: AgentRemoteMessage[] = [];
  const terminals = createTerminals({
    spawner: () => Promise.resolve(spawner === 'fake' ? (_c, size) => fakeShell('pc', size) : null),
    consent,
    command: (shell) => {
      if (shell === 'powershell') {
        throw new ShellUnavailable('not here');
      }
      return { file: 'sh', args: [], cwd: '/', env: {} };
    },
  });
  return { sent, terminals, send: (m: AgentRemoteMessage) => sent.push(m) };
}

describe('terminal sessions on the agent', () => {
  afterEach(() => {
    delete process.env.OUTPOST_AGENT_TERMINAL_CONSENT;
  });

  it('asks for consent first; a refusal ends the session before a shell starts', async () => {
    const banners: string[] = [];
    const { sent, terminals, send } = setup({
      ask: () => Promise.resolve(USER_REFUSED),
      banner: (t) => banners.push(t),
    });
    terminals.terminal(open(true), send);
    await until(() => sent.length > 0);
    expect(sent).toEqual([
      { type: 'terminal_exit', sessionId: ID, reason: 'consent_denied', message: USER_REFUSED },
    ]);
    expect(banners).toEqual([]);
  });

  it('starts the shell once allowed, shows the banner, and ends sessions when the socket closes', async () => {
    const banners: string[] = [];
    const { sent, terminals, send } = setup({
      ask: () => Promise.resolve(null),
      banner: (t) => banners.push(t),
    });
    terminals.terminal(open(true), send);
    await until(() => sent.some((m) => m.type === 'terminal_started'));
    expect(terminals.count).toBe(1);
    expect(banners).toEqual(['Ada opened a remote terminal on this computer.']);
    terminals.connectionLost();
    expect(terminals.count).toBe(0);
    expect(sent.at(-1)).toMatchObject({ type: 'terminal_exit', reason: 'closed' });
    expect(banners.at(-1)).toBe('The remote terminal session of Ada ended.');
  });

  it('says why it cannot start: another platform’s shell, no pseudo-terminal in this build', async () => {
    const a = setup({ ask: () => Promise.resolve(null), banner: () => undefined });
    a.terminals.terminal(open(false, 'powershell'), a.send);
    await until(() => a.sent.length > 0);
    expect(a.sent[0]).toMatchObject({ type: 'terminal_exit', reason: 'refused', message: 'not here' });
    const b = setup({ ask: () => Promise.resolve(null), banner: () => undefined }, 'none');
    b.terminals.terminal(open(false), b.send);
    await until(() => b.sent.length > 0);
    expect(b.sent[0]).toMatchObject({ type: 'terminal_exit', reason: 'error', message: PTY_UNAVAILABLE });
  });
});

describe('consent on the device', () => {
  const signal = new AbortController().signal;

  it('refuses when nobody is signed in, and where the OS cannot ask (Linux)', async () => {
    expect(
      await deviceConsent(new RecordingStepExecutor(), 'win32', () =>
        Promise.resolve({ stdout: 'allow' }),
      ).ask('Ada', signal),
    ).toBe(NO_USER_TO_ASK);
    const signedIn = new RecordingStepExecutor({ sessions: () => [session] });
    expect(
      await deviceConsent(signedIn, 'linux', () => Promise.resolve({ stdout: '' })).ask('Ada', signal),
    ).toBe(CANNOT_ASK);
  });

  it('Windows: allowed only on Yes; macOS: only on Allow, not when the dialog gave up', async () => {
    const signedIn = new RecordingStepExecutor({ sessions: () => [session] });
    const answer = (platform: NodeJS.Platform, stdout: string) =>
      deviceConsent(signedIn, platform, (file) =>
        Promise.resolve({ stdout: file === 'stat' ? '501\n' : stdout }),
      ).ask('Ada', signal);
    expect(await answer('win32', 'allow\r\n')).toBeNull();
    expect(await answer('win32', 'deny\r\n')).toBe(USER_REFUSED);
    expect(await answer('darwin', 'button returned:Allow, gave up:false')).toBeNull();
    expect(await answer('darwin', 'button returned:, gave up:true')).toBe(USER_REFUSED);
    expect(await answer('darwin', 'button returned:Refuse, gave up:false')).toBe(USER_REFUSED);
  });

  it('under a dry run shows nothing and answers as OUTPOST_AGENT_TERMINAL_CONSENT says', async () => {
    const signedIn = new RecordingStepExecutor({ sessions: () => [session] });
    expect(await deviceConsent(signedIn).ask('Ada', signal)).toBe(USER_REFUSED);
    process.env.OUTPOST_AGENT_TERMINAL_CONSENT = 'allow';
    expect(await deviceConsent(signedIn).ask('Ada', signal)).toBeNull();
    expect(signedIn.calls[0]).toMatchObject({ kind: 'message', notice: { title: 'Remote terminal' } });
  });
});
