import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProcessRunner } from '@outpost/agent/steps/process-runner';
import { spawnRunner } from '@outpost/agent/steps/process-runner';
import { makeZip } from '@outpost/agent/test-support';
import { logOf, startRealAgentRig } from '../support/real-agent';
import type { RealAgentRig } from '../support/real-agent';

// SECURITY.md R2-2: a local account on a managed device must not get root through the agent.
// The real agent (wired as `outpost-agent run`) against a real server, with another local
// account played by uid 65534 (nobody): the agent runs as root like in production.
//  - the old predictable staging path under the temp folder, prepared by that account with links
//    to a root-only file, is never used: nothing outside the agent's folder changes and the
//    deployment completes;
//  - that account cannot swap a payload between its check and its run: the bytes run are the
//    bytes verified;
//  - a work folder that is a link, or belongs to another account, is refused with the reason in
//    the step log.

const OTHER = 65534;

/** Runs a shell command as the other local account; its exit code and error output. */
function asOtherAccount(script: string, ...args: string[]): { status: number | null; stderr: string } {
  const r = spawnSync('/bin/sh', ['-c', script, 'sh', ...args], { uid: OTHER, gid: OTHER, encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr };
}

describe('the agent’s work folder (real agent, real server)', () => {
  let rig: RealAgentRig;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-file-rules-'));
  const hostileTmp = path.join(dir, 'shared-tmp');
  const victim = path.join(dir, 'root-only.conf');
  const savedTmpdir = process.env.TMPDIR;

  beforeAll(async () => {
    // The attacks below are those of another local account against an agent running as root.
    expect(process.getuid?.(), 'run the integration tests as root, as the agent runs').toBe(0);
    rig = await startRealAgentRig();
    // the other account may pass through the test's folder, as through / and /tmp
    fs.chmodSync(dir, 0o755);
    fs.writeFileSync(victim, 'root only\n', { mode: 0o600 });
    // the shared temp folder: world-writable and sticky, as /tmp
    fs.mkdirSync(hostileTmp, { mode: 0o1777 });
    fs.chmodSync(hostileTmp, 0o1777);
    process.env.TMPDIR = hostileTmp;
  });
  afterEach(async () => {
    await rig.stopAgent();
  });
  afterAll(async () => {
    // an unset TMPDIR stays unset (assigning undefined would store the string "undefined")
    if (savedTmpdir === undefined) {
      delete process.env.TMPDIR;
    } else {
      process.env.TMPDIR = savedTmpdir;
    }
    await rig?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('ignores a hostile tree prepared under the temp folder: nothing outside its folder changes and the deployment completes', async () => {
    // the other account prepares the path the agent used to stage in, for the next deployments,
    // with links to a root-only file where the agent would write its downloads and scripts
    const prepared = asOtherAccount(
      `set -e; for n in 1 2 3 4 5 6 7 8; do for s in 1 2 3; do
         d="$1/outpost/deployment-$n/step-$s-attempt-1"; mkdir -p "$d"; chmod 777 "$d"
         ln -s "$2" "$d/installer.sh"; ln -s "$2" "$d/tool.zip"; ln -s "$2" "$d/script.ps1"
       done; done; chmod -R 777 "$1/outpost"`,
      hostileTmp,
      victim,
    );
    expect(prepared).toEqual({ status: 0, stderr: '' });
    const before = fs.readdirSync(hostileTmp, { recursive: true }).map(String).sort();

    const stateDir = path.join(dir, 'state-1');
    await rig.startAgent(stateDir);
    const installer = await rig.upload('installer.sh', '#!/bin/sh\necho "installer ran with $1"\n');
    const zip = await rig.upload(
      'tool.zip',
      await makeZip([{ name: 'run.sh', data: '#!/bin/sh\necho zip ran\n', mode: 0o755 }]),
    );
    const { job, logs } = await rig.deploy([
      {
        step_name: 'Installer',
        step_type: 'EXE',
        step_details: { source_type: 'upload', file: installer, arguments: '--quiet' },
      },
      {
        step_name: 'Zip',
        step_type: 'CUSTOM_ZIP',
        step_details: { zip_file: zip, main_executable: 'run.sh', cleanup: true },
      },
      { step_name: 'Where', step_type: 'CMD', step_details: { command: 'pwd' } },
    ]);
    expect(job).toMatchObject({ status: 'completed', completed_devices: 1 });
    expect(logOf(logs, 'Installer').stdout_log).toContain('installer ran with --quiet');
    expect(logOf(logs, 'Zip').stdout_log).toContain('zip ran');
    // the package working directory is the agent's own folder beside its state
    const work = path.join(stateDir, 'work');
    expect(logOf(logs, 'Where').stdout_log.trim()).toBe(work);
    const st = fs.lstatSync(work);
    expect([st.isDirectory(), st.uid, st.mode & 0o777]).toEqual([true, 0, 0o700]);
    // nothing outside it changed: the root-only file, the prepared tree, the temp folder
    expect(fs.readFileSync(victim, 'utf8')).toBe('root only\n');
    expect(fs.statSync(victim).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(hostileTmp, { recursive: true }).map(String).sort()).toEqual(before);
    // and the agent's folder keeps nothing of the finished deployment
    expect(fs.readdirSync(work)).toEqual([]);
  }, 90_000);

  it('never runs a payload swapped after its check: the other account cannot reach it, and the bytes run are those verified', async () => {
    const attempts: { file: string; status: number | null; stderr: string }[] = [];
    // a fault point between verification and execution: the other account tries to replace
    // the verified program, write into it, and plant a file beside it
    const racing: ProcessRunner = (request) => {
      const r = asOtherAccount(
        `printf '#!/bin/sh\\necho swapped payload\\n' > "$1" || exit 3
         printf '#!/bin/sh\\necho swapped payload\\n' > "$1.new" && mv -f "$1.new" "$1" || exit 4`,
        request.file,
      );
      attempts.push({ file: request.file, ...r });
      return spawnRunner(request);
    };
    const stateDir = path.join(dir, 'state-2');
    await rig.startAgent(stateDir, racing);
    const genuine = '#!/bin/sh\necho genuine payload\n';
    const file = await rig.upload('setup.sh', genuine);
    const { job, logs } = await rig.deploy([
      { step_name: 'Setup', step_type: 'EXE', step_details: { source_type: 'upload', file } },
    ]);
    expect(job.status).toBe('completed');
    expect(logOf(logs, 'Setup').stdout_log).toBe('genuine payload\n');
    expect(attempts).toHaveLength(1);
    expect(attempts[0]!.file.startsWith(path.join(stateDir, 'work') + path.sep)).toBe(true);
    expect(attempts[0]!.status).toBe(3);
    expect(attempts[0]!.stderr).toMatch(/Permission denied/);
  }, 90_000);

  it('refuses a work folder that is a symbolic link, with the reason in the step log, and writes nothing through it', async () => {
    const stateDir = path.join(dir, 'state-3');
    const elsewhere = path.join(dir, 'elsewhere');
    fs.mkdirSync(stateDir, { mode: 0o700 });
    fs.mkdirSync(elsewhere, { mode: 0o700 });
    fs.symlinkSync(elsewhere, path.join(stateDir, 'work'));
    await rig.startAgent(stateDir);
    const file = await rig.upload('setup.sh', '#!/bin/sh\necho should not run\n');
    const { job, logs } = await rig.deploy([
      { step_name: 'Setup', step_type: 'EXE', step_details: { source_type: 'upload', file }, retry_count: 2 },
    ]);
    expect(job.status).toBe('failed');
    const row = logOf(logs, 'Setup');
    expect(row.error_message).toBe(
      `The agent's work folder ${path.join(stateDir, 'work')} is a symbolic link; refusing to use it. Remove it and the agent creates a private folder.`,
    );
    // refused once, not retried: re-running cannot help
    expect(logs.filter((l) => l.step_name === 'Setup')).toHaveLength(1);
    expect(fs.readdirSync(elsewhere)).toEqual([]);
  }, 90_000);

  it('refuses a work folder that belongs to another account', async () => {
    const stateDir = path.join(dir, 'state-4');
    const work = path.join(stateDir, 'work');
    fs.mkdirSync(work, { recursive: true, mode: 0o700 });
    fs.chownSync(work, OTHER, OTHER);
    await rig.startAgent(stateDir);
    const { job, logs } = await rig.deploy([
      { step_name: 'Hello', step_type: 'CMD', step_details: { command: 'echo should not run' } },
    ]);
    expect(job.status).toBe('failed');
    const row = logOf(logs, 'Hello');
    expect(row.error_message).toBe(
      `The agent's work folder ${work} belongs to another account (uid ${OTHER}); refusing to use it. Remove it and the agent creates a private folder.`,
    );
    expect(row.stdout_log ?? '').toBe('');
    expect(fs.readdirSync(work)).toEqual([]);
  }, 90_000);
});
