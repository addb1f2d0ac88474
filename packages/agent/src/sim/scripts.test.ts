import { describe, expect, it } from 'vitest';
import type { RunScriptCommand } from '@outpost/contract/agent-protocol';
import { outputLines } from '@outpost/contract/script-runs';
import type { StepProgress } from '../steps/deployment-loop';
import { createRng } from './rng';
import { createSimulatedScriptExecutor, printedLines } from './scripts';

// The simulator's scripts (sim/scripts.ts): what they print, and how `exit N` steers them.

const command = (body: string): RunScriptCommand => ({
  kind: 'run_script',
  jobId: 1,
  deviceDeploymentId: 1,
  name: 'Sim (v1)',
  language: 'powershell',
  body,
  params: {},
  secretNames: [],
  timeoutSeconds: 60,
});

async function run(body: string) {
  const reports: StepProgress[] = [];
  const exec = createSimulatedScriptExecutor(createRng(1), {
    durationMs: { min: 0, max: 0 },
    failureRate: 0,
  });
  const outcome = await exec(command(body), {
    report: (p) => reports.push(p),
    signal: new AbortController().signal,
    secrets: {},
  });
  return { outcome, lines: outputLines(reports.map((r) => r.stdout ?? '').join('')), reports };
}

describe('simulated scripts', () => {
  it('print what the body’s output lines say', () => {
    expect(printedLines('echo "one"\nWrite-Output \'two\'\nprint("three")\n$x = 1')).toEqual([
      'one',
      'two',
      'three',
    ]);
  });

  it('end with exit code 0 and stream the lines in order', async () => {
    const { outcome, lines, reports } = await run('Write-Output "a"\nWrite-Output "b"');
    expect(outcome).toMatchObject({ status: 'completed', exitCode: 0 });
    expect(lines).toEqual([
      { stream: 'stdout', text: 'a' },
      { stream: 'stdout', text: 'b' },
    ]);
    expect(reports[0]!.startedAt).toBeDefined();
  });

  it('fail with the code of an unconditional exit N and a stderr line', async () => {
    const { outcome, lines } = await run('Write-Output "a"\nexit 4');
    expect(outcome).toMatchObject({ status: 'failed', exitCode: 4 });
    expect(lines.at(-1)?.stream).toBe('stderr');
  });
});
