import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunScriptCommand } from '@outpost/contract/agent-protocol';
import { outputLines } from '@outpost/contract/script-runs';
import type { StepProgress } from '../steps/deployment-loop';
import type { ProcessRequest, ProcessResult } from '../steps/process-runner';
import { createScriptExecutor } from './run-script';

// The real agent's run of a script (docs/agent.md "Scripts"), with a recording ProcessRunner: the
// file and the interpreter, parameters only in the environment, output masked and merged, and the
// results of a missing interpreter, a timeout and a cancel.

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-run-script-'));
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

const command = (over: Partial<RunScriptCommand> = {}): RunScriptCommand => ({
  kind: 'run_script',
  jobId: 1,
  deviceDeploymentId: Math.floor(Math.random() * 1e9),
  name: 'Test (v1)',
  language: 'bash',
  body: 'echo hi',
  params: { who: 'world' },
  secretNames: ['token'],
  timeoutSeconds: 30,
  ...over,
});

function run(result: (req: ProcessRequest) => ProcessResult, platform: NodeJS.Platform = 'linux') {
  const requests: ProcessRequest[] = [];
  const bodies: string[] = [];
  const reports: StepProgress[] = [];
  const exec = createScriptExecutor({
    workDir,
    platform,
    flushIntervalMs: 1,
    runner: (req) => {
      requests.push(req);
      bodies.push(fs.readFileSync(req.args.at(-1)!.replaceAll('"', ''), 'utf8'));
      req.onStdout('hello hun');
      req.onStderr('oops\n');
      req.onStdout('ter2 world\n');
      return Promise.resolve(result(req));
    },
  });
  const io = {
    report: (p: StepProgress) => reports.push(p),
    signal: new AbortController().signal,
    secrets: { token: 'hunter2' },
  };
  return { go: (c: RunScriptCommand) => exec(c, io), requests, bodies, reports };
}

const output = (reports: StepProgress[]) => reports.map((r) => r.stdout ?? '').join('');

describe('createScriptExecutor', () => {
  it('runs the interpreter on a private file with parameters only in the environment, output masked and in order', async () => {
    const t = run(() => ({ exitCode: 0, timedOut: false, cancelled: false }));
    const outcome = await t.go(command({ body: 'echo "$OUTPOST_WHO"' }));
    expect(outcome).toMatchObject({ status: 'completed', exitCode: 0, error: null });
    const req = t.requests[0]!;
    expect(req.file).toBe('bash');
    expect(req.args[0]).toMatch(/script\.sh$/);
    expect(req.args[0]!.startsWith(workDir)).toBe(true);
    expect(t.bodies[0]).toBe('echo "$OUTPOST_WHO"');
    expect(req.env).toEqual({ OUTPOST_WHO: 'world', OUTPOST_TOKEN: 'hunter2' });
    expect(req.timeoutMs).toBe(30_000);
    expect(outputLines(output(t.reports))).toEqual([
      { stream: 'stderr', text: 'oops' },
      { stream: 'stdout', text: 'hello •••• world' },
    ]);
    expect(JSON.stringify(t.reports)).not.toContain('hunter2');
    expect(t.reports.at(-1)).toMatchObject({ status: 'completed', exitCode: 0 });
  });

  it('says clearly when the interpreter is missing', async () => {
    const t = run(() => ({
      exitCode: null,
      timedOut: false,
      cancelled: false,
      spawnError: 'spawn pwsh ENOENT',
    }));
    const outcome = await t.go(command({ language: 'powershell' }));
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toBe('The interpreter pwsh was not found on this device (spawn pwsh ENOENT)');
  });

  it('fails a run past its timeout and reports a cancel as cancelled', async () => {
    const late = await run(() => ({ exitCode: null, timedOut: true, cancelled: false })).go(
      command({ timeoutSeconds: 7 }),
    );
    expect(late).toMatchObject({
      status: 'failed',
      error: 'The script ran longer than its timeout of 7 s and was stopped',
    });
    const stopped = await run(() => ({ exitCode: null, timedOut: false, cancelled: true })).go(command());
    expect(stopped.status).toBe('cancelled');
  });

  it('reports a non-zero exit code as a failure', async () => {
    const t = run(() => ({ exitCode: 3, timedOut: false, cancelled: false }));
    expect(await t.go(command())).toMatchObject({ status: 'failed', exitCode: 3 });
  });

  it('refuses cmd off Windows without starting anything', async () => {
    const t = run(() => ({ exitCode: 0, timedOut: false, cancelled: false }));
    expect((await t.go(command({ language: 'cmd' }))).error).toMatch(/only on Windows/);
    expect(t.requests).toEqual([]);
  });
});
