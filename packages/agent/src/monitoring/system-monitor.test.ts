import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import type { AgentCheck } from '@outpost/contract/agent-protocol';
import type { CheckConfig } from '@outpost/contract/checks';
import { parseSystemdServices } from '../inventory/services';
import { systemConditionProbes } from '../steps/condition-probes';
import { CpuSampler, memoryUsedPercent } from './cpu-sampler';
import { createSystemMonitor, rebootPendingSource } from './system-monitor';
import type { SystemSources } from './system-monitor';
import { createVolumeSource, linuxMounts, parseProcMounts } from './volumes';

// Each evaluator against this machine where it can be real (its CPU, memory, the disk of /, its
// processes, a port the test opens, sh scripts), the service check through the recorded
// systemctl output the inventory parses, and a reboot marker in a temp folder.

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const SYSTEMD_UNITS = `cron.service        loaded active   running Regular background program processing daemon
postgresql.service  loaded inactive dead    PostgreSQL RDBMS
`;

async function monitor(extra: Partial<SystemSources> = {}) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'outpost-monitor-'));
  dirs.push(dir);
  const sources: SystemSources = {
    platform: process.platform,
    cpu: new CpuSampler(0),
    memoryUsedPercent: () => memoryUsedPercent(),
    volumes: createVolumeSource(linuxMounts),
    services: () => Promise.resolve(parseSystemdServices(SYSTEMD_UNITS, '')),
    processNames: () => systemConditionProbes(process.platform).processNames(),
    rebootPending: rebootPendingSource('linux', { marker: path.join(dir, 'reboot-required') }),
    crashedRestartAt: null,
    workDir: dir,
    ...extra,
  };
  const m = createSystemMonitor(sources);
  const run = (config: CheckConfig, now = Date.now()) => {
    const c: AgentCheck = { id: 1, type: config.type, config, intervalSeconds: 60, failuresBeforeAlert: 1 };
    return Promise.resolve(m.evaluate(c, now));
  };
  return { run, dir, sources, monitor: m };
}

describe('the system monitor on this machine (Linux)', () => {
  it('averages CPU samples over the check minutes and sends the minute in metrics', async () => {
    const { run, sources, monitor: m } = await monitor();
    expect(await run({ type: 'cpu', percent: 90, minutes: 5 }, 1000)).toEqual({
      state: 'passing',
      output: 'No CPU sample yet',
    });
    sources.cpu.tick(6_000); // a real sample of this machine
    sources.cpu.push(11_000, 99);
    sources.cpu.push(16_000, 95);
    const res = await run({ type: 'cpu', percent: 1, minutes: 5 }, 16_000);
    expect(res.output).toMatch(/^CPU \d+ % average over 5 minutes \(limit 1 %\)$/);
    const hot = await run({ type: 'cpu', percent: 90, minutes: 1 }, 20 * 60_000);
    expect(hot.output).toBe('No CPU sample yet');
    const metrics = await m.metrics(16_000);
    expect(metrics?.cpuMax).toBeGreaterThanOrEqual(99); // the real sample may be busier
    expect(metrics?.memory).toBeGreaterThan(0);
    expect(metrics?.volumes.map((v) => v.mount)).toContain('/');
  });

  it('reads memory in use against the limit', async () => {
    const { run } = await monitor();
    expect((await run({ type: 'memory', percent: 100 })).state).toBe('passing');
    const low = await run({ type: 'memory', percent: 1 });
    expect(low.state).toBe('failing');
    expect(low.output).toMatch(/^Memory \d+ % in use \(limit 1 %\)$/);
  });

  it('reads the free space of / and of every volume', async () => {
    const { run } = await monitor();
    const root = await run({ type: 'disk', volume: '/', min_free_percent: null, min_free_gb: 0.001 });
    expect(root.state).toBe('passing');
    expect(root.output).toMatch(/^\/ [\d.]+ [GT]B free of [\d.]+ [GT]B \(\d+ %\)/);
    const all = await run({ type: 'disk', volume: '*', min_free_percent: 100, min_free_gb: null });
    expect(all.state).toBe('failing');
    const missing = await run({
      type: 'disk',
      volume: '/no-such-volume',
      min_free_percent: 10,
      min_free_gb: null,
    });
    expect(missing).toEqual({ state: 'failing', output: 'Volume /no-such-volume was not found' });
  });

  it('finds a running process (a sleep the test starts) and not one that does not run', async () => {
    // The test's own process is named after its runner ("node (vitest 1)"), so it starts one whose
    // name it knows.
    const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
    onTestFinished(() => {
      sleeper.kill();
    });
    await new Promise((resolve) => sleeper.once('spawn', resolve));
    const { run } = await monitor();
    expect(await run({ type: 'process', process: 'sleep', expect: 'running' })).toMatchObject({
      state: 'passing',
    });
    expect(await run({ type: 'process', process: 'outpost-no-such-process', expect: 'running' })).toEqual({
      state: 'failing',
      output: 'Process outpost-no-such-process is not running',
    });
    expect(
      (await run({ type: 'process', process: 'outpost-no-such-process', expect: 'stopped' })).state,
    ).toBe('passing');
  });

  it('connects to a port the test opens, and fails on a closed one', async () => {
    const server = net.createServer((s) => s.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    const { run } = await monitor();
    const open = await run({ type: 'port', host: '127.0.0.1', port, timeout_ms: 2000 });
    expect(open.state).toBe('passing');
    expect(open.output).toMatch(new RegExp(`^127\\.0\\.0\\.1:${port} answered in \\d+ ms$`));
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(await run({ type: 'port', host: '127.0.0.1', port, timeout_ms: 2000 })).toEqual({
      state: 'failing',
      output: `127.0.0.1:${port} refused the connection (nothing listens there)`,
    });
  });

  it('runs sh scripts: exit 0 passing, 1 warning, 2 failing, and a timeout failing', async () => {
    const { run } = await monitor();
    const script = (text: string, timeout = 10) =>
      run({ type: 'script', shell: 'sh', script: text, timeout_seconds: timeout });
    expect(await script('echo all good')).toEqual({ state: 'passing', output: 'all good' });
    expect(await script('echo low on paper; exit 1')).toEqual({ state: 'warning', output: 'low on paper' });
    expect(await script('echo broken >&2; exit 2')).toEqual({ state: 'failing', output: 'broken' });
    expect(await script('exit 7')).toEqual({ state: 'failing', output: 'The script exited with code 7' });
    const long = await script('head -c 9000 /dev/zero | tr "\\0" x');
    expect(long.output.length).toBeLessThanOrEqual(4000);
    const slow = await script('echo started; sleep 30', 1);
    expect(slow.state).toBe('failing');
    expect(slow.output).toBe('The script did not finish within 1 s and was stopped\nstarted');
  });

  it('reads a service through the services inventory', async () => {
    const { run } = await monitor();
    expect(await run({ type: 'service', service: 'cron' })).toEqual({
      state: 'passing',
      output: 'Service Regular background program processing daemon (cron) is running',
    });
    expect((await run({ type: 'service', service: 'postgresql.service' })).state).toBe('failing');
    expect(await run({ type: 'service', service: 'nope' })).toEqual({
      state: 'failing',
      output: 'Service nope was not found',
    });
  });

  it('reports a pending reboot from the marker file, and a crash for an hour', async () => {
    const { run, dir } = await monitor({ crashedRestartAt: 1_000_000 });
    expect(await run({ type: 'event', event: 'reboot_pending' })).toEqual({
      state: 'passing',
      output: 'No reboot is pending',
    });
    await writeFile(path.join(dir, 'reboot-required'), '*** System restart required ***\n');
    expect((await run({ type: 'event', event: 'reboot_pending' })).state).toBe('failing');
    expect(await run({ type: 'event', event: 'agent_crash' }, 1_000_000 + 12 * 60_000)).toEqual({
      state: 'failing',
      output: 'The agent restarted after a crash 12 minutes ago',
    });
    expect((await run({ type: 'event', event: 'agent_crash' }, 1_000_000 + 61 * 60_000)).state).toBe(
      'passing',
    );
  });
});

describe('the volume list', () => {
  it('keeps data file systems once each, and / always', () => {
    const mounts = [
      'overlay / overlay rw 0 0',
      'proc /proc proc rw 0 0',
      'tmpfs /run tmpfs rw 0 0',
      '/dev/sda1 /boot/efi vfat rw 0 0',
      '/dev/sda2 /home ext4 rw 0 0',
      '/dev/sda2 /var/lib/docker ext4 rw 0 0',
      '/dev/sdb1 /mnt/my\\040disk xfs rw 0 0',
      'squashfs /snap/core squashfs ro 0 0',
    ].join('\n');
    expect(parseProcMounts(mounts)).toEqual(['/', '/boot/efi', '/home', '/mnt/my disk']);
  });

  it('asks Windows for the drives once a while, and reads Windows reboot keys', async () => {
    let lists = 0;
    const source = createVolumeSource(() => {
      lists++;
      return Promise.resolve([]);
    });
    await source();
    await source();
    expect(lists).toBe(1);
    const asked: string[] = [];
    const pending = rebootPendingSource('win32', {
      readRegistry: (key, value) => {
        asked.push(`${key}|${value}`);
        return Promise.resolve(key.endsWith('RebootRequired') ? { data: '' } : null);
      },
    });
    expect(await pending()).toEqual({ isPending: true, why: 'RebootRequired' });
    expect(asked).toHaveLength(2);
    expect(await rebootPendingSource('darwin')()).toEqual({ isPending: false });
  });
});
