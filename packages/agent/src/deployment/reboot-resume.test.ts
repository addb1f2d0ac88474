import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RecordingExecutor } from '../actions/executor';
import { RecordingStepExecutor } from '../actions/step-executor';
import { createAgent } from '../agent';
import type { Agent } from '../agent';
import { createMemoryOutbox } from '../outbox';
import { command, step, tempDir } from '../../test/support/steps';
import { DEVICE, sha256, startFakeServer } from '../../test/support/deployment';
import type { FakeServer } from '../../test/support/deployment';
import { spawnRunner } from '../steps/process-runner';
import type { ProcessRunner } from '../steps/process-runner';
import { createFileJournal } from './journal';
import { BACK_NOTE } from './reboot-resume';
import { createStepsRunner } from './steps-runner';

// docs/product/rollouts.md#reboot-message-and-wait-steps — a deployment across a restart: the
// agent saves its place in the journal file before it reports the reboot and orders it; a new
// agent (the process after the restart) resumes the same command at the next step, once.

let fake: FakeServer;
let dir: string;
let cleanup: () => Promise<void>;
const agents: Agent[] = [];

beforeEach(async () => {
  fake = await startFakeServer();
  ({ dir, cleanup } = await tempDir());
});
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.stop()));
  await fake.close();
  await cleanup();
});

/** An agent process: its own step executor, the journal file under `dir` (what survives a restart). */
async function bootAgent(runner?: ProcessRunner): Promise<{ agent: Agent; steps: RecordingStepExecutor }> {
  const steps = new RecordingStepExecutor();
  const agent = createAgent({
    server: fake.url,
    ...DEVICE,
    outbox: createMemoryOutbox(),
    backend: {
      hello: () =>
        Promise.resolve({
          agentVersion: 'test',
          hostname: 'pc',
          osType: 'linux',
          osVersion: '1',
          sessions: [],
        }),
      inventory: () => Promise.resolve({}),
    },
    executor: new RecordingExecutor(),
    stepExecutor: steps,
    journal: createFileJournal(path.join(dir, 'deployments.json')),
    deployments: createStepsRunner({
      server: fake.url,
      ...DEVICE,
      workDir: path.join(dir, 'work'),
      device: { executor: steps },
      runner,
    }),
    progress: { intervalMs: 20, windowMs: 0 },
  });
  agents.push(agent);
  agent.start();
  await fake.waitFor(() => agent.connection.state === 'connected');
  return { agent, steps };
}

describe('a REBOOT step across the agent’s restart', () => {
  it('saves the place, reports the reboot, and the next agent resumes at the next step exactly once', async () => {
    const marker = path.join(dir, 'runs');
    const cmd = command([
      step(1, 'CMD', { command: `echo one >> '${marker}'` }),
      step(2, 'REBOOT', { delay_seconds: 5 }),
      step(3, 'CMD', { command: `echo three >> '${marker}'` }),
    ]);
    const first = await bootAgent();
    fake.command('r1', cmd);
    await fake.waitFor(() => first.steps.calls.some((c) => c.kind === 'reboot'));
    expect(first.steps.calls).toEqual([{ kind: 'reboot', request: { delaySeconds: 5 } }]);
    const hold = await fake.waitFor(() => fake.progress('r1').find((m) => m.hold === 'rebooting'));
    expect(hold).toMatchObject({ stepOrder: 2, attempt: 1, status: 'completed' });
    const journal = JSON.parse(await readFile(path.join(dir, 'deployments.json'), 'utf8')) as unknown[][];
    expect(journal[0]).toMatchObject(['r1', 'rebooting', { stepOrder: 2, seq: hold.seq }]);
    expect(fake.result('r1')).toBeUndefined();
    // the OS restarts: the process goes away, a new one starts from the same files
    await first.agent.stop();
    await bootAgent();
    fake.command('r1', cmd); // the server offers the command again after the reconnect
    const result = await fake.waitFor(() => fake.result('r1'));
    expect(result).toMatchObject({ status: 'completed', error: null });
    expect(await readFile(marker, 'utf8')).toBe('one\nthree\n');
    // numbering goes on after the restart (the server applies each message once)
    const seqs = fake.progress('r1').map((m) => m.seq);
    expect(new Set(seqs).size).toBe(seqs.length);
    const back = fake.progress('r1').find((m) => m.note === BACK_NOTE);
    expect(back).toMatchObject({ stepOrder: 2, status: 'completed' });
    expect(back!.seq).toBe(hold.seq + 1);
    // a third process finds nothing to resume
    await bootAgent();
    fake.command('r1', cmd);
    await new Promise((r) => setTimeout(r, 200));
    expect(await readFile(marker, 'utf8')).toBe('one\nthree\n');
    expect(fake.received.filter((m) => m.type === 'command_result' && m.commandId === 'r1')).toHaveLength(1);
  });

  it('an installer asking for a restart (3010) with reboot_on_request restarts and resumes', async () => {
    const marker = path.join(dir, 'runs');
    const setup = `#!/bin/sh\necho installed >> '${marker}'\n`;
    // a POSIX exit status has 8 bits: the installer's 3010 is played by the runner
    const installer: ProcessRunner = async (request) => {
      const result = await spawnRunner(request);
      return request.file.endsWith('setup.sh') && result.exitCode === 0
        ? { ...result, exitCode: 3010 }
        : result;
    };
    fake.files.set(9, Buffer.from(setup));
    const cmd = command([
      step(1, 'EXE', {
        source_type: 'upload',
        file: { id: 9, originalFilename: 'setup.sh', sha256: sha256(setup) },
        reboot_on_request: true,
      }),
      step(2, 'CMD', { command: `echo after >> '${marker}'` }),
    ]);
    const first = await bootAgent(installer);
    fake.command('r2', cmd);
    await fake.waitFor(() => first.steps.calls.some((c) => c.kind === 'reboot'));
    expect(first.steps.calls).toEqual([{ kind: 'reboot', request: { delaySeconds: 60 } }]);
    await first.agent.stop();
    await bootAgent();
    expect(await fake.waitFor(() => fake.result('r2'))).toMatchObject({ status: 'completed' });
    expect(await readFile(marker, 'utf8')).toBe('installed\nafter\n');
  });
});
