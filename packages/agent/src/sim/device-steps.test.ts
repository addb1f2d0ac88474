import { afterEach, describe, expect, it } from 'vitest';
import { RecordingStepExecutor } from '../actions/step-executor';
import { createAgent } from '../agent';
import type { Agent } from '../agent';
import { createMemoryJournal } from '../deployment/journal';
import { createMemoryOutbox } from '../outbox';
import { NO_USER_NOTE } from '../steps/message';
import { waitedLine } from '../steps/wait';
import { DEVICE, startFakeServer } from '../../test/support/deployment';
import type { FakeServer } from '../../test/support/deployment';
import { command, reports, step } from '../../test/support/steps';
import { createSimulatedRunner } from './deployments';
import { SimulatedExecutor, createPowerCycle } from './power';
import { createRng } from './rng';
import { createVirtualDevice, virtualBackend } from './virtual-device';

// docs/product/rollouts.md#reboot-message-and-wait-steps on a simulated machine: a WAIT runs at
// the simulator's time scale, a MESSAGE is recorded (or noted when no one is signed in), and a
// REBOOT powers the machine off and on: the agent that boots resumes the deployment.

const FAST = { stepDurationMs: { min: 100, max: 200 }, timeScale: 0.001, failureRate: 0 };

describe('the new steps on a simulated machine', () => {
  it('waits at the time scale and records messages for the signed-in user', async () => {
    const executor = new RecordingStepExecutor({ sessions: () => [{ sessionId: '1', userName: 'bob' }] });
    const runner = createSimulatedRunner(FAST, createRng(3), executor);
    const r = reports();
    const result = await runner(
      command([
        step(1, 'WAIT', { seconds: 600 }),
        step(2, 'MESSAGE', { title: 'IT', message: 'Hi' }),
        step(3, 'REBOOT', {}),
      ]),
      { report: r.report, signal: new AbortController().signal },
    );
    expect(result.steps[0]!.attempts[0]!.stdout).toContain(waitedLine(600));
    expect(executor.calls).toEqual([{ kind: 'message', notice: { title: 'IT', message: 'Hi' } }]);
    expect(result.restart).toMatchObject({ stepOrder: 3, delaySeconds: 60 });
  });

  it('notes a message no one saw', async () => {
    const runner = createSimulatedRunner(FAST, createRng(3), new RecordingStepExecutor());
    const r = reports();
    await runner(command([step(1, 'MESSAGE', { title: 'IT', message: 'Hi' })]), {
      report: r.report,
      signal: new AbortController().signal,
    });
    expect(r.list.find((p) => p.status === 'completed')?.note).toBe(NO_USER_NOTE);
  });
});

describe('a simulated reboot', () => {
  let fake: FakeServer;
  const agents: Agent[] = [];
  afterEach(async () => {
    await Promise.all(agents.map((a) => a.stop()));
    await fake?.close();
  });

  it('takes the machine offline for a while, and the agent that boots resumes at the next step', async () => {
    fake = await startFakeServer();
    const device = createVirtualDevice(createRng(1), 0, { prefix: 'SIM', subnet: 1 });
    device.sessions = [];
    const journal = createMemoryJournal();
    const outbox = createMemoryOutbox();
    const executor = new SimulatedExecutor();
    const stepExecutor = new RecordingStepExecutor({ onReboot: () => executor.onPowerOff?.('restart') });
    const deployments = createSimulatedRunner({ ...FAST, platform: 'win32' }, createRng(2), stepExecutor);
    let boots = 0;
    const boot = () => {
      boots += 1;
      const agent = createAgent({
        server: fake.url,
        ...DEVICE,
        outbox,
        backend: virtualBackend(device),
        executor,
        deployments,
        journal,
        stepExecutor,
        progress: { intervalMs: 20, windowMs: 0 },
      });
      agents.push(agent);
      agent.start();
      return agent;
    };
    let agent = boot();
    const power = createPowerCycle(
      { restartDownMs: 100, shutdownDownMs: 1000 },
      { stop: () => agent.stop(), boot: () => (agent = boot()) },
    );
    executor.onPowerOff = (action) => void power.powerOff(action);
    await fake.waitFor(() => agent.connection.state === 'connected');
    fake.command(
      's1',
      command([
        step(1, 'CMD', { command: 'echo one' }),
        step(2, 'REBOOT', {}),
        step(3, 'CMD', { command: 'echo three' }),
      ]),
    );
    const result = await fake.waitFor(() => fake.result('s1'), 10_000);
    expect(result).toMatchObject({ status: 'completed' });
    expect(boots).toBe(2);
    const finals = fake
      .progress('s1')
      .filter((m) => m.status === 'completed')
      .map((m) => m.stepOrder);
    expect(finals.filter((o) => o === 3)).toHaveLength(1);
    expect(finals.filter((o) => o === 1)).toHaveLength(1);
    expect(fake.progress('s1').some((m) => m.hold === 'rebooting')).toBe(true);
  });
});
