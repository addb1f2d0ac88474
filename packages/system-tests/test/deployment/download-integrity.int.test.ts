import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logOf, startRealAgentRig } from '../support/real-agent';
import type { RealAgentRig } from '../support/real-agent';

// SECURITY.md "Download from URL": the real agent checks an EXE download against the step's
// Expected SHA-256 while writing it, runs it only when it matches, and records the hash it saw
// in the step log either way. The download comes from a plain http:// server on this machine.

describe('an EXE download with an Expected SHA-256 (real agent, real server)', () => {
  let rig: RealAgentRig;
  let web: http.Server;
  let base = '';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-download-'));
  const marker = path.join(dir, 'installer-ran');
  const payload = `#!/bin/sh\necho installed > '${marker}'\necho installer ran\n`;
  const hash = createHash('sha256').update(payload).digest('hex');

  beforeAll(async () => {
    web = http.createServer((_req, res) => res.end(payload));
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
    rig = await startRealAgentRig();
    await rig.startAgent(path.join(dir, 'state'));
  });
  afterAll(async () => {
    await rig?.close();
    await new Promise((resolve) => web?.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a wrong hash fails the step, runs nothing and logs the hash it saw', async () => {
    const wanted = createHash('sha256').update('the file the administrator meant').digest('hex');
    const url = `${base}/setup.sh`;
    const { job, logs } = await rig.deploy([
      { step_name: 'Install', step_type: 'EXE', step_details: { source_type: 'url', url, sha256: wanted } },
    ]);
    expect(job.status).toBe('failed');
    const row = logOf(logs, 'Install');
    expect(row.status).toBe('failed');
    expect(row.error_message).toBe(
      `The download from ${url} failed its integrity check: its sha256 is ${hash}, the step expects ${wanted}; not run`,
    );
    expect(fs.existsSync(marker)).toBe(false);
  }, 90_000);

  it('the right hash runs it, and the step log records the hash of the bytes run', async () => {
    const url = `${base}/setup.sh`;
    const { job, logs } = await rig.deploy([
      {
        step_name: 'Install',
        step_type: 'EXE',
        step_details: { source_type: 'url', url, sha256: hash.toUpperCase() },
      },
    ]);
    expect(job.status).toBe('completed');
    expect(logOf(logs, 'Install').stdout_log).toBe(
      `Downloaded ${url}: ${Buffer.byteLength(payload)} bytes, sha256 ${hash} (matches the Expected SHA-256)\ninstaller ran\n`,
    );
    expect(fs.readFileSync(marker, 'utf8')).toBe('installed\n');
  }, 90_000);
});
