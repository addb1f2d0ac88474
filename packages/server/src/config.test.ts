import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, fastifyTrustProxy, loadConfig, parseTrustProxy } from './config';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-config-'));

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({ DATA_DIR: tmp() });
    expect(c).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      devLogin: false,
      demo: true,
      demoFailureRate: 0.05,
      deployments: { offlineExpiryMs: 24 * 60 * 60 * 1000, schedulerIntervalMs: 1000 },
    });
  });

  it('takes the monitoring faults of the demo fleet as name=share pairs', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).demoFaults).toBeNull();
    expect(
      loadConfig({ DATA_DIR: tmp(), OUTPOST_DEMO_FAULTS: 'hotCpu=0.5, rebootPending=1' }).demoFaults,
    ).toBe('hotCpu=0.5, rebootPending=1');
    expect(() => loadConfig({ DATA_DIR: tmp(), OUTPOST_DEMO_FAULTS: 'hot cpu' })).toThrow(
      'OUTPOST_DEMO_FAULTS is name=share pairs',
    );
  });

  it('serves metrics only with a long token or on a valid internal port', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).metrics).toEqual({ token: null, port: null, host: '127.0.0.1' });
    expect(() => loadConfig({ DATA_DIR: tmp(), METRICS_TOKEN: 'short' })).toThrow(
      'METRICS_TOKEN must be at least 32 characters',
    );
    expect(() => loadConfig({ DATA_DIR: tmp(), METRICS_PORT: '70000' })).toThrow(
      'METRICS_PORT must be a port number from 1 to 65535',
    );
    const token = 'a'.repeat(40);
    expect(loadConfig({ DATA_DIR: tmp(), METRICS_TOKEN: token, METRICS_PORT: '9464' }).metrics).toEqual({
      token,
      port: 9464,
      host: '127.0.0.1',
    });
  });

  it('publishes agent executables from packages/agent/dist-exe, or AGENT_RELEASES_DIR from where it starts', () => {
    const repo = path.resolve(import.meta.dirname, '../../..');
    expect(loadConfig({ DATA_DIR: tmp() }).agentReleasesDir).toBe(path.join(repo, 'packages/agent/dist-exe'));
    expect(loadConfig({ DATA_DIR: tmp(), AGENT_RELEASES_DIR: '/srv/agent' }).agentReleasesDir).toBe(
      '/srv/agent',
    );
    expect(
      loadConfig({ DATA_DIR: tmp(), AGENT_RELEASES_DIR: 'releases', INIT_CWD: '/opt/outpost' })
        .agentReleasesDir,
    ).toBe('/opt/outpost/releases');
  });

  it('requires signed Windows agent releases only when OUTPOST_AGENT_REQUIRE_SIGNATURE says so', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).agentRequireSignature).toBe(false);
    expect(
      loadConfig({ DATA_DIR: tmp(), OUTPOST_AGENT_REQUIRE_SIGNATURE: 'true' }).agentRequireSignature,
    ).toBe(true);
    expect(loadConfig({ DATA_DIR: tmp(), OUTPOST_AGENT_REQUIRE_SIGNATURE: '0' }).agentRequireSignature).toBe(
      false,
    );
    expect(() => loadConfig({ DATA_DIR: tmp(), OUTPOST_AGENT_REQUIRE_SIGNATURE: 'maybe' })).toThrow(
      /OUTPOST_AGENT_REQUIRE_SIGNATURE/,
    );
  });

  it('points the demo fleet at a given server URL, else at the server itself', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).demoFleetUrl).toBeNull();
    expect(
      loadConfig({ DATA_DIR: tmp(), OUTPOST_DEMO_FLEET_URL: 'http://127.0.0.1:3000/' }).demoFleetUrl,
    ).toBe('http://127.0.0.1:3000');
    expect(() => loadConfig({ DATA_DIR: tmp(), OUTPOST_DEMO_FLEET_URL: 'nginx:3000' })).toThrow(
      'OUTPOST_DEMO_FLEET_URL must be a server URL such as http://127.0.0.1:3000',
    );
  });

  it('refuses a simulated failure rate outside 0 to 1 in words', () => {
    expect(() => loadConfig({ DATA_DIR: tmp(), OUTPOST_SIM_FAILURE_RATE: '1.5' })).toThrow(
      'OUTPOST_SIM_FAILURE_RATE must be a number from 0 to 1',
    );
    expect(() => loadConfig({ DATA_DIR: tmp(), OUTPOST_SIM_FAILURE_RATE: 'lots' })).toThrow(
      'OUTPOST_SIM_FAILURE_RATE must be a number from 0 to 1',
    );
    expect(loadConfig({ DATA_DIR: tmp(), OUTPOST_SIM_FAILURE_RATE: '0' }).demoFailureRate).toBe(0);
  });

  it('names every bad variable in one clear error', () => {
    expect(() => loadConfig({ DATA_DIR: tmp(), PORT: 'abc', DATABASE_URL: 'mysql://x' })).toThrow(
      ConfigError,
    );
    try {
      loadConfig({ DATA_DIR: tmp(), PORT: '99999', DATABASE_URL: 'mysql://x' });
    } catch (err) {
      expect((err as Error).message).toContain('PORT');
      expect((err as Error).message).toContain('DATABASE_URL must start with postgres://');
    }
  });

  it('generates the session key once and keeps it under DATA_DIR', () => {
    const dir = tmp();
    const first = loadConfig({ DATA_DIR: dir }).sessionSecret;
    const second = loadConfig({ DATA_DIR: dir }).sessionSecret;
    expect(Buffer.from(first).equals(Buffer.from(second))).toBe(true);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(fs.statSync(path.join(dir, 'session.key')).mode & 0o077).toBe(0);
  });
});

describe('TRUST_PROXY', () => {
  it('is off by default and a bare number is a hop count, never "trust every hop"', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy(' 2 ')).toBe(2);
    const oneHop = fastifyTrustProxy(1);
    expect(typeof oneHop).toBe('function');
    if (typeof oneHop === 'function') {
      expect([oneHop('127.0.0.1', 0), oneHop('198.51.100.1', 1)]).toEqual([true, false]);
    }
  });

  it('accepts a hop count only while listening on loopback, and names the fix otherwise', () => {
    for (const host of ['127.0.0.1', '127.0.0.2', '::1', '[::1]', 'localhost', 'LOCALHOST']) {
      expect(loadConfig({ DATA_DIR: tmp(), HOST: host, TRUST_PROXY: '1' }).trustProxy).toBe(1);
    }
    for (const host of ['0.0.0.0', '::', '192.0.2.10', 'fd00::2', 'outpost.internal']) {
      const load = () => loadConfig({ DATA_DIR: tmp(), HOST: host, TRUST_PROXY: '1' });
      expect(load).toThrow(ConfigError);
      expect(load).toThrow(
        `TRUST_PROXY: 1 is a hop count, which trusts X-Forwarded-For from whoever connects`,
      );
      expect(load).toThrow(`HOST=${host} lets clients connect directly`);
      expect(load).toThrow('Name the proxies instead (TRUST_PROXY=10.0.0.5');
      expect(load).toThrow('(HOST=127.0.0.1)');
    }
    // Named proxies, or no proxy at all, are fine on every address.
    expect(loadConfig({ DATA_DIR: tmp(), HOST: '0.0.0.0', TRUST_PROXY: '10.0.0.5' }).trustProxy).toEqual([
      '10.0.0.5',
    ]);
    expect(loadConfig({ DATA_DIR: tmp(), HOST: '0.0.0.0' }).trustProxy).toBe(false);
  });

  it('never lets a hop count trust a peer that is not on this machine', () => {
    const twoHops = fastifyTrustProxy(2);
    if (typeof twoHops !== 'function') {
      throw new Error('a hop count is a trust function');
    }
    // the socket's peer (hop 0) must be loopback; the hop behind it is trusted by count
    expect([twoHops('127.0.0.1', 0), twoHops('::ffff:127.0.0.1', 0), twoHops('203.0.113.9', 1)]).toEqual([
      true,
      true,
      true,
    ]);
    expect([twoHops('203.0.113.9', 0), twoHops('192.0.2.2', 0), twoHops('10.0.0.1', 2)]).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('takes a comma-separated list of proxy addresses and CIDR ranges', () => {
    expect(parseTrustProxy('10.0.0.5, 192.168.1.0/24,fd00::/8,::1,loopback')).toEqual([
      '10.0.0.5',
      '192.168.1.0/24',
      'fd00::/8',
      '::1',
      'loopback',
    ]);
    expect(loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: '10.0.0.5' }).trustProxy).toEqual(['10.0.0.5']);
  });

  it('refuses "true", bad addresses and bad prefixes with the expected format', () => {
    for (const bad of [
      'true',
      'yes',
      '10.0.0.300',
      '10.0.0.0/33',
      'fd00::/129',
      'proxy.local',
      '10.0.0.1/8/2',
      '99',
    ]) {
      expect(() => parseTrustProxy(bad)).toThrow(ConfigError);
      expect(() => parseTrustProxy(bad)).toThrow(
        /TRUST_PROXY must be a hop count .* or a comma-separated list/,
      );
    }
  });
});
