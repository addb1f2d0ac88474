import { afterEach, describe, expect, it } from 'vitest';
import { StepProgressMessage } from '@outpost/contract/agent-protocol';
import type { DeploymentStep } from '@outpost/contract/agent-protocol';
import { RecordingExecutor } from '../actions/executor';
import { createAgent } from '../agent';
import type { Agent } from '../agent';
import { DEVICE, startFakeServer } from '../../test/support/deployment';
import type { FakeServer } from '../../test/support/deployment';
import { createMemoryOutbox } from '../outbox';
import { command, reports, step } from '../../test/support/steps';
import { createSimulatedRunner, simFailRate } from './deployments';
import type { DeploymentCommand } from '../deployment/runner';
import type { SimDeploymentOptions } from './deployments';
import { createRng } from './rng';
import { createVirtualDevice, virtualBackend } from './virtual-device';

// Simulated deployments run in a twentieth of their time: a 2 s step takes 100 ms here.

const FAST: Partial<SimDeploymentOptions> = { stepDurationMs: { min: 1000, max: 2000 }, timeScale: 0.05 };

const twoSteps = (extra: Partial<DeploymentStep> = {}) =>
  command([
    step(1, 'EXE', { source_type: 'upload', file: { id: 3, originalFilename: 'setup.exe' } }, extra),
    step(
      2,
      'REGISTRY',
      {
        hive: 'HKEY_LOCAL_MACHINE',
        key_path: 'SOFTWARE\\Acme',
        value_name: 'Ring',
        value_type: 'REG_SZ',
        value_data: 'fast',
      },
      extra,
    ),
  ]);

async function run(options: Partial<SimDeploymentOptions>, cmd: DeploymentCommand, signal?: AbortSignal) {
  const r = reports();
  const runner = createSimulatedRunner({ ...FAST, ...options }, createRng(7));
  const result = await runner(cmd, { report: r.report, signal: signal ?? new AbortController().signal });
  return { r, result };
}

/** Every report must make a valid step_progress message. */
function expectValid(r: ReturnType<typeof reports>) {
  r.list.forEach((p, i) =>
    StepProgressMessage.parse({
      type: 'step_progress',
      messageId: `m${i}`,
      commandId: 'c',
      seq: i + 1,
      ...p,
    }),
  );
}

describe('simulated deployments', () => {
  it('complete every step with plausible output when nothing fails', async () => {
    const { r, result } = await run({ failureRate: 0 }, twoSteps());
    expect(result.status).toBe('completed');
    expect(r.ends().map((p) => [p.stepOrder, p.status, p.attempt])).toEqual([
      [1, 'completed', 1],
      [2, 'completed', 1],
    ]);
    expect(r.output(1)).toContain('Downloading setup.exe... 100%');
    expect(r.output(1)).toMatch(/Process exited with code (0|3010)/);
    expect(r.output(2)).toContain('The operation completed successfully.');
    expectValid(r);
  });

  it('fail every attempt at failure rate 1, each logged with its attempt, exit code and stderr', async () => {
    const { r, result } = await run({ failureRate: 1 }, twoSteps({ retryCount: 2 }));
    expect(result.status).toBe('failed');
    const ends = r.ends();
    expect(ends.map((p) => [p.stepOrder, p.status, p.attempt ?? null])).toEqual([
      [1, 'failed', 1],
      [1, 'failed', 2],
      [1, 'failed', 3],
      [2, 'cancelled', null],
    ]);
    for (const end of ends.slice(0, 3)) {
      expect(end.exitCode).not.toBe(0);
      expect(end.errorMessage).toBe(`Exit code ${end.exitCode}`);
      expect(r.output(1, end.attempt, 'stderr')).toContain('installation failed');
    }
    expect(ends[3]?.errorMessage).toBe('Not run: an earlier step failed');
    expect(result.steps[0]?.attempts).toHaveLength(3);
  });

  it('carry on after a failed step whose fail_deployment_on_error is off', async () => {
    const { r, result } = await run({ failureRate: 1 }, twoSteps({ failDeploymentOnError: false }));
    expect(result.status).toBe('completed');
    expect(r.ends().map((p) => [p.stepOrder, p.status])).toEqual([
      [1, 'failed'],
      [2, 'failed'],
    ]);
  });

  it('fail a step that takes longer than its timeout with the timeout message', async () => {
    const { r, result } = await run(
      { failureRate: 0 },
      command([step(1, 'CMD', { command: 'echo working; sleep 5' }, { timeoutSeconds: 2 })]),
    );
    expect(result.status).toBe('failed');
    expect(r.ends()).toEqual([
      expect.objectContaining({
        status: 'failed',
        exitCode: null,
        errorMessage: 'Timed out after 2 seconds; the process was stopped',
      }),
    ]);
  });

  it('take the exit code a CMD command asks for, whatever the failure rate', async () => {
    const { r } = await run(
      { failureRate: 1 },
      command([
        step(1, 'CMD', { command: 'echo ok & exit 0' }, { failDeploymentOnError: false }),
        step(2, 'CMD', { command: 'exit 4' }, { failDeploymentOnError: false }),
      ]),
    );
    expect(r.output(1)).toContain('ok\n');
    expect(r.ends().map((p) => [p.status, p.exitCode])).toEqual([
      ['completed', 0],
      ['failed', 4],
    ]);
  });

  it('draw the outcome of a command with branches (if … exit 0 else exit 1) like any other', async () => {
    const check = 'if exist "C:\\Program Files\\7-Zip\\7z.exe" (exit /b 0) else (exit /b 1)';
    const { r } = await run({ failureRate: 0 }, command([step(1, 'CMD', { command: check })]));
    expect(r.ends().map((p) => [p.status, p.exitCode])).toEqual([['completed', 0]]);
  });

  it('stop on cancel: the running step and the rest are reported cancelled', async () => {
    const controller = new AbortController();
    const r = reports();
    const runner = createSimulatedRunner({ ...FAST, failureRate: 0 }, createRng(1));
    const done = runner(
      command([step(1, 'CMD', { command: 'echo long; sleep 60' }), step(2, 'CMD', { command: 'echo next' })]),
      {
        report: (p) => {
          r.report(p);
          if (p.stdout === 'long\n') {
            controller.abort();
          }
        },
        signal: controller.signal,
      },
    );
    const result = await done;
    expect(result.status).toBe('cancelled');
    expect(r.ends().map((p) => [p.stepOrder, p.status, p.errorMessage])).toEqual([
      [1, 'cancelled', 'Deployment cancelled'],
      [2, 'cancelled', 'Deployment cancelled'],
    ]);
  });

  it('fail on the share of machines a sim-fail=N% marker asks for, whatever the fleet’s rate', async () => {
    expect(simFailRate({ command: 'echo install & rem sim-fail=30%' })).toBe(0.3);
    expect(simFailRate({ command: 'echo install' })).toBeNull();
    const marked = command([step(1, 'CMD', { command: 'echo install & rem sim-fail=100%' })]);
    expect((await run({ failureRate: 0 }, marked)).result.status).toBe('failed');
    const never = command([step(1, 'CMD', { command: 'echo install & rem sim-fail=0%' })]);
    expect((await run({ failureRate: 1 }, never)).result.status).toBe('completed');
  });

  it('a simulated machine stops before a step its maintenance window has no room for, and resumes at startAtStep', async () => {
    // the window closes in 60 s: step 1 (timeout 30 s) starts, step 2 (timeout 3600 s) does not
    const windowEndsAt = new Date(Date.now() + 60_000).toISOString();
    const { r, result } = await run(
      { failureRate: 0 },
      {
        ...command([
          step(1, 'CMD', { command: 'echo one' }, { timeoutSeconds: 30 }),
          step(2, 'CMD', { command: 'echo two' }, { timeoutSeconds: 3600 }),
        ]),
        windowEndsAt,
      },
    );
    expect(result).toMatchObject({ status: 'cancelled', waitingForWindowAtStep: 2 });
    expect(r.ends().map((p) => p.stepOrder)).toEqual([1]);
    const resumed = await run(
      { failureRate: 0 },
      {
        ...command([step(1, 'CMD', { command: 'echo one' }), step(2, 'CMD', { command: 'echo two' })]),
        startAtStep: 2,
      },
    );
    expect(resumed.result.status).toBe('completed');
    expect(resumed.r.ends().map((p) => p.stepOrder)).toEqual([2]);
  });

  it('are the same for the same seed', async () => {
    const once = async () => {
      const { r } = await run(
        { failureRate: 0.5 },
        twoSteps({ retryCount: 3, failDeploymentOnError: false }),
      );
      // what each attempt printed and how it ended (chunk boundaries follow the clock)
      const ends = r.ends().map(({ startedAt: _s, completedAt: _c, ...rest }) => rest);
      return ends.map((e) => ({ ...e, stdout: e.attempt ? r.output(e.stepOrder, e.attempt) : '' }));
    };
    expect(await once()).toEqual(await once());
  });
});

describe('a virtual agent', () => {
  let fake: FakeServer | null = null;
  let agent: Agent | null = null;
  afterEach(async () => {
    await agent?.stop();
    await fake?.close();
  });

  it('answers run_deployment with simulated progress and result, and stops on cancel', async () => {
    fake = await startFakeServer();
    const device = createVirtualDevice(createRng(3), 0, { prefix: 'HQ', subnet: 10 });
    agent = createAgent({
      server: fake.url,
      ...DEVICE,
      outbox: createMemoryOutbox(),
      backend: virtualBackend(device),
      executor: new RecordingExecutor(),
      deployments: createSimulatedRunner({ ...FAST, failureRate: 0 }, createRng(3)),
      progress: { intervalMs: 50 },
    });
    agent.start();
    await fake.waitFor(() => agent?.connection.state === 'connected');
    fake.command('s1', twoSteps());
    expect(await fake.waitFor(() => fake?.result('s1'))).toMatchObject({
      status: 'completed',
      result: { deploymentStatus: 'completed' },
    });
    expect(fake.progress('s1').map((m) => m.seq)).toEqual(fake.progress('s1').map((_, i) => i + 1));

    fake.command(
      's2',
      command([step(1, 'CMD', { command: 'echo waiting; sleep 120' }, { timeoutSeconds: 600 })]),
    );
    await fake.waitFor(() => fake?.progress('s2').some((m) => m.stdout?.includes('waiting')));
    fake.command('k2', { kind: 'cancel', targetCommandId: 's2' });
    expect(await fake.waitFor(() => fake?.result('s2'))).toMatchObject({
      status: 'failed',
      result: { deploymentStatus: 'cancelled' },
      error: 'Deployment cancelled',
    });
  });
});
