import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UpdateAgentCommand } from '@outpost/contract/agent-protocol';
import { platformOf, releaseMessages } from '@outpost/contract/agent-releases';
import type { UpdateIo, UpdaterOptions } from './updater';
import { MARKER_FILE, ROLLBACK_EXIT_CODE, createUpdater, selfTestVersion } from './updater';

// Stand-in executables: small shell scripts that answer --self-test like the agent does.
const agentScript = (version: string) => `#!/bin/sh\necho "outpost-agent ${version}"\n`;
const crashingScript = '#!/bin/sh\necho "boom" >&2\nexit 1\n';

const platform = platformOf(process.platform, process.arch) ?? 'linux-x64';
const sha = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

function command(
  body: string,
  version: string,
  overrides: Partial<UpdateAgentCommand['builds'][number]> = {},
) {
  return {
    kind: 'update_agent' as const,
    version,
    builds: [
      {
        platform,
        version,
        sha256: sha(body),
        size: Buffer.byteLength(body),
        url: `/api/agent/releases/${platform}`,
        ...overrides,
      },
    ],
  };
}

describe('agent self-update', () => {
  let dir: string;
  let exe: string;
  let stateDir: string;
  /** what the fake server serves for the next download */
  let served: string;
  let downloads: { url: string; headers: Record<string, string> }[];
  let exits: number[];

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-update-'));
    exe = path.join(dir, 'outpost-agent');
    stateDir = path.join(dir, 'state');
    fs.mkdirSync(stateDir);
    fs.writeFileSync(exe, agentScript('1.0.0'), { mode: 0o755 });
    downloads = [];
    exits = [];
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const io: Partial<UpdateIo> = {
    download: async (url, dest, headers) => {
      downloads.push({ url: url.toString(), headers });
      await fs.promises.writeFile(dest, served);
    },
    exit: (code) => {
      exits.push(code);
    },
  };

  const updater = (version: string, overrides: Partial<UpdaterOptions> = {}) =>
    createUpdater({
      exePath: exe,
      isPackaged: true,
      version,
      stateDir,
      server: 'https://outpost.example.com',
      deviceGuid: 'guid-1',
      agentSecret: 'secret-1',
      io,
      ...overrides,
    });

  const marker = () =>
    JSON.parse(fs.readFileSync(path.join(stateDir, MARKER_FILE), 'utf8')) as Record<string, unknown>;
  const files = () => fs.readdirSync(dir).sort();

  it('verifies, self-tests and swaps atomically; the new version confirms after its welcome', async () => {
    served = agentScript('1.0.1');
    const old = updater('1.0.0');
    await expect(old.apply('cmd-1', command(served, '1.0.1'))).resolves.toEqual({ restart: true });
    expect(downloads).toEqual([
      {
        url: `https://outpost.example.com/api/agent/releases/${platform}`,
        headers: { 'x-outpost-device': 'guid-1', authorization: 'Bearer secret-1' },
      },
    ]);
    expect(fs.readFileSync(exe, 'utf8')).toBe(agentScript('1.0.1'));
    expect(fs.readFileSync(`${exe}.previous`, 'utf8')).toBe(agentScript('1.0.0'));
    expect(fs.statSync(exe).mode & 0o111).not.toBe(0);
    expect(marker()).toMatchObject({
      commandId: 'cmd-1',
      fromVersion: '1.0.0',
      toVersion: '1.0.1',
      state: 'applied',
      attempts: 0,
    });

    // the service manager starts the new executable
    const next = updater('1.0.1');
    await expect(next.beforeStart()).resolves.toEqual({ action: 'continue' });
    expect(marker()).toMatchObject({ attempts: 1 });
    expect(next.pendingCommandId()).toBe('cmd-1');
    await expect(next.settle()).resolves.toEqual({
      commandId: 'cmd-1',
      status: 'completed',
      result: { version: '1.0.1', previousVersion: '1.0.0', startAttempts: 1 },
      error: null,
    });
    expect(files()).toEqual(['outpost-agent', 'state']);
    expect(fs.readdirSync(stateDir)).toEqual([]);
    await expect(next.settle()).resolves.toBeNull();
  });

  it('refuses a download whose sha256 or size differs from the command, leaving nothing behind', async () => {
    served = agentScript('1.0.1');
    const old = updater('1.0.0');
    await expect(old.apply('c', command(served, '1.0.1', { sha256: sha('other') }))).rejects.toThrow(
      /sha256 is [0-9a-f]{64}, the update announced [0-9a-f]{64}: refused/,
    );
    await expect(old.apply('c', command(served, '1.0.1', { size: 3 }))).rejects.toThrow(
      /bytes, the update announced 3: refused/,
    );
    expect(fs.readFileSync(exe, 'utf8')).toBe(agentScript('1.0.0'));
    expect(files()).toEqual(['outpost-agent', 'state']);
    expect(fs.readdirSync(stateDir)).toEqual([]);
  });

  it('refuses an executable that fails its self-test or reports another version', async () => {
    served = crashingScript;
    await expect(updater('1.0.0').apply('c', command(served, '1.0.1'))).rejects.toThrow(
      'The new executable failed its self-test (exit code 1): not installed',
    );
    served = agentScript('1.0.2');
    await expect(updater('1.0.0').apply('c', command(served, '1.0.1'))).rejects.toThrow(
      'The new executable reports version 1.0.2, the update announced 1.0.1: not installed',
    );
    expect(fs.readFileSync(exe, 'utf8')).toBe(agentScript('1.0.0'));
    expect(files()).toEqual(['outpost-agent', 'state']);
  });

  it('rolls back when the new version keeps failing to start, and the old one reports why', async () => {
    served = agentScript('1.0.1');
    await updater('1.0.0').apply('cmd-2', command(served, '1.0.1'));
    // three starts that crash or never connect: each is counted before connecting
    for (let i = 1; i <= 3; i++) {
      await expect(updater('1.0.1').beforeStart()).resolves.toEqual({ action: 'continue' });
      expect(marker()).toMatchObject({ attempts: i });
    }
    await expect(updater('1.0.1').beforeStart()).resolves.toEqual({
      action: 'exit',
      code: ROLLBACK_EXIT_CODE,
    });
    expect(fs.readFileSync(exe, 'utf8')).toBe(agentScript('1.0.0'));
    expect(marker()).toMatchObject({ state: 'rolled_back' });

    // the previous version starts again and answers the update command once connected
    const old = updater('1.0.0');
    await expect(old.beforeStart()).resolves.toEqual({ action: 'continue' });
    expect(old.pendingCommandId()).toBe('cmd-2');
    await expect(old.settle()).resolves.toEqual({
      commandId: 'cmd-2',
      status: 'failed',
      result: { version: '1.0.0', rolledBack: true },
      error: 'The new version 1.0.1 did not reach the server in 3 starts; rolled back to 1.0.0',
    });
    expect(files()).toEqual(['outpost-agent', 'state']);
    expect(fs.readdirSync(stateDir)).toEqual([]);
  });

  it('rolls back when the new version is not welcomed in time', async () => {
    served = agentScript('1.0.1');
    await updater('1.0.0').apply('cmd-3', command(served, '1.0.1'));
    let exited: (code: number) => void = () => undefined;
    const exit = new Promise<number>((resolve) => (exited = resolve));
    const next = updater('1.0.1', { confirmTimeoutMs: 20, io: { ...io, exit: (code) => exited(code) } });
    await next.beforeStart();
    await expect(exit).resolves.toBe(ROLLBACK_EXIT_CODE);
    expect(fs.readFileSync(exe, 'utf8')).toBe(agentScript('1.0.0'));
    expect(marker()).toMatchObject({
      state: 'rolled_back',
      reason: 'The new version 1.0.1 was not welcomed by the server within 0 s; rolled back to 1.0.0',
    });
  });

  it('puts the old executable back when the second rename fails', async () => {
    served = agentScript('1.0.1');
    const renames: string[] = [];
    const failing = updater('1.0.0', {
      io: {
        ...io,
        rename: async (from, to) => {
          renames.push(`${path.basename(from)} → ${path.basename(to)}`);
          if (from.endsWith('.download')) {
            throw new Error('EXDEV: cross-device link not permitted');
          }
          await fs.promises.rename(from, to);
        },
      },
    });
    await expect(failing.apply('c', command(served, '1.0.1'))).rejects.toThrow('EXDEV');
    expect(renames).toEqual([
      'outpost-agent → outpost-agent.previous',
      '.outpost-agent.download → outpost-agent',
      'outpost-agent.previous → outpost-agent',
    ]);
    expect(fs.readFileSync(exe, 'utf8')).toBe(agentScript('1.0.0'));
    expect(files()).toEqual(['outpost-agent', 'state']);
    expect(fs.readdirSync(stateDir)).toEqual([]);
  });

  it('on Windows, downloads to a name that keeps the .exe extension, so it can run its self-test', async () => {
    served = agentScript('1.0.1');
    exe = path.join(dir, 'outpost-agent.exe');
    fs.writeFileSync(exe, agentScript('1.0.0'), { mode: 0o755 });
    const dests: string[] = [];
    const windows = updater('1.0.0', {
      io: {
        ...io,
        download: async (_url, dest) => {
          dests.push(path.basename(dest));
          await fs.promises.writeFile(dest, served);
        },
      },
    });
    await expect(windows.apply('c', command(served, '1.0.1'))).resolves.toEqual({ restart: true });
    expect(dests).toEqual(['outpost-agent.download.exe']);
    expect(fs.readFileSync(exe, 'utf8')).toBe(agentScript('1.0.1'));
    expect(fs.readFileSync(`${exe}.previous`, 'utf8')).toBe(agentScript('1.0.0'));
  });

  it('never downloads from another origin (the agent sends its credentials with the download)', async () => {
    served = agentScript('1.0.1');
    await expect(
      updater('1.0.0').apply('c', command(served, '1.0.1', { url: '//evil.example/outpost-agent' })),
    ).rejects.toThrow('The update names a download on another server (https://evil.example): refused');
    expect(downloads).toEqual([]);
  });

  it('answers without restarting when the agent already runs the version', async () => {
    served = agentScript('1.0.0');
    await expect(updater('1.0.0').apply('c', command(served, '1.0.0'))).resolves.toEqual({
      restart: false,
      result: { version: '1.0.0', alreadyCurrent: true },
    });
    expect(downloads).toEqual([]);
  });

  it('needs the packaged agent, and a build for its platform', async () => {
    served = agentScript('1.0.1');
    await expect(
      updater('1.0.0', { isPackaged: false }).apply('c', command(served, '1.0.1')),
    ).rejects.toThrow(releaseMessages.needsPackagedAgent);
    await expect(
      updater('1.0.0', { platform: 'win32', arch: 'x64' }).apply('c', command(served, '1.0.1')),
    ).rejects.toThrow("The update names no build for this agent's platform (win-x64)");
  });

  it('a start without a marker, or of another version than the marker names, changes nothing', async () => {
    await expect(updater('1.0.0').beforeStart()).resolves.toEqual({ action: 'continue' });
    fs.writeFileSync(
      path.join(stateDir, MARKER_FILE),
      JSON.stringify({
        commandId: 'c',
        fromVersion: '1.0.0',
        toVersion: '1.0.1',
        state: 'applied',
        attempts: 0,
        appliedAt: '',
      }),
    );
    const old = updater('1.0.0');
    await expect(old.beforeStart()).resolves.toEqual({ action: 'continue' });
    expect(marker()).toMatchObject({ attempts: 0 });
    await expect(old.settle()).resolves.toMatchObject({
      status: 'failed',
      error: 'The update to 1.0.1 did not take effect; the agent still runs 1.0.0',
    });
  });

  it('reads the version from a self-test line', () => {
    expect(selfTestVersion('outpost-agent 1.2.3\n')).toBe('1.2.3');
    expect(selfTestVersion('1.2.3-rc.1')).toBe('1.2.3-rc.1');
    expect(selfTestVersion('no version')).toBeNull();
  });
});
