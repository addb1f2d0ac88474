import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createProbeClient } from './probe-worker';

const FIXTURE = path.resolve(import.meta.dirname, '../../test/support/probe-worker-fixture.ts');
const command = { file: process.execPath, args: ['--import', 'tsx', FIXTURE, '__probe-worker'] };

const clients: { close(): void }[] = [];
const client = (env: Record<string, string> = {}) => {
  Object.assign(process.env, env);
  const c = createProbeClient(command);
  clients.push(c);
  return c;
};
afterEach(() => {
  clients.splice(0).forEach((c) => c.close());
  delete process.env.PROBE_FIXTURE;
  delete process.env.PROBE_IDLE_MS;
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the probe worker', () => {
  it('runs the probes in another process and hands back their answers and their errors', async () => {
    const probes = client();
    const facts = (await probes.collectFacts()) as { hostname: string };
    expect(facts.hostname).toMatch(/^worker-\d+$/);
    expect(facts.hostname).not.toBe(`worker-${process.pid}`);
    // arguments reach the probe; a second call reuses the same worker
    expect(await probes.collectNetwork('https://ip.example')).toMatchObject({
      externalIp: 'https://ip.example',
    });
    expect(((await probes.collectFacts()) as { hostname: string }).hostname).toBe(facts.hostname);
    await expect(probes.collectSoftware()).rejects.toThrow('dpkg-query is not available');
  });

  it('exits when idle and is started again on the next call', async () => {
    const probes = client({ PROBE_IDLE_MS: '200' });
    const first = Number(((await probes.collectFacts()) as { hostname: string }).hostname.slice(7));
    await expect.poll(() => alive(first), { timeout: 10_000 }).toBe(false);
    const second = Number(((await probes.collectFacts()) as { hostname: string }).hostname.slice(7));
    expect(second).not.toBe(first);
  });

  it('fails the calls of a worker that died, and the next call starts a new one', async () => {
    const probes = client();
    await expect(probes.collectServices()).rejects.toThrow('the probe worker exited (code 3)');
    expect(((await probes.collectFacts()) as { hostname: string }).hostname).toMatch(/^worker-\d+$/);
  });

  it("answers with this machine's real facts", async () => {
    const probes = client({ PROBE_FIXTURE: 'real' });
    const facts = await probes.collectFacts();
    expect(facts.hostname).toBe(os.hostname());
    expect(facts.osType).toBe('linux');
  }, 30_000);
});
