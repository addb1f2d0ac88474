import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunDeploymentResult } from '@outpost/contract/deployments';
import { RecordingExecutor } from '../actions/executor';
import { INTERRUPTED_MESSAGE, createAgent } from '../agent';
import type { Agent, AgentOptions } from '../agent';
import { createMemoryOutbox } from '../outbox';
import { command, step, tempDir } from '../../test/support/steps';
import { createMemoryJournal } from './journal';
import type { RunJournal } from './journal';
import { createStepsRunner } from './steps-runner';
import { DEVICE, DOWNLOADED_TOOL, sha256, startFakeServer } from '../../test/support/deployment';
import type { FakeServer } from '../../test/support/deployment';

// The agent's command handling for run_deployment and cancel, against a stand-in server over a
// real websocket, with the step library and the real process runner: only /bin/sh with echo,
// exit and sleep, and shell scripts written to a temp folder, run here.

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

async function startAgent(extra: Partial<AgentOptions> = {}): Promise<Agent> {
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
    deployments: createStepsRunner({ server: fake.url, ...DEVICE, workDir: path.join(dir, 'work') }),
    progress: { intervalMs: 50 },
    ...extra,
  });
  agents.push(agent);
  agent.start();
  await fake.waitFor(() => agent.connection.state === 'connected');
  return agent;
}

const result = (commandId: string) => fake.waitFor(() => fake.result(commandId));

describe('run_deployment on the agent', () => {
  it('reports every step as numbered step_progress messages, then the command result', async () => {
    await startAgent();
    fake.command(
      'c1',
      command([
        step(1, 'CMD', { command: 'echo installing; echo careful >&2' }),
        step(2, 'CMD', { command: 'echo done; exit 0' }),
      ]),
    );
    const res = await result('c1');
    expect(res).toMatchObject({ status: 'completed', error: null });
    expect(RunDeploymentResult.parse(res.result)).toEqual({
      deploymentStatus: 'completed',
      rebootRequired: false,
    });
    const progress = fake.progress('c1');
    expect(progress.map((m) => m.seq)).toEqual(progress.map((_, i) => i + 1));
    // each attempt's latest state: coalesced, so a step that ends quickly may be one message
    const ends = progress.filter((m) => m.status !== 'running');
    expect(ends.map((m) => [m.stepOrder, m.status, m.attempt])).toEqual([
      [1, 'completed', 1],
      [2, 'completed', 1],
    ]);
    for (const order of [1, 2]) {
      expect(progress.find((m) => m.stepOrder === order)?.startedAt).toBeDefined();
    }
    const text = (order: number, stream: 'stdout' | 'stderr') =>
      progress
        .filter((m) => m.stepOrder === order)
        .map((m) => m[stream] ?? '')
        .join('');
    expect(text(1, 'stdout')).toBe('installing\n');
    expect(text(1, 'stderr')).toBe('careful\n');
    expect(text(2, 'stdout')).toBe('done\n');
    // the output of a step arrives with or before its final status
    const end1 = progress.findIndex((m) => m.stepOrder === 1 && m.status === 'completed');
    expect(progress.findIndex((m) => m.stdout === 'installing\n')).toBeLessThanOrEqual(end1);
    // the result comes after the last progress message
    expect(fake.received.indexOf(res)).toBeGreaterThan(fake.received.indexOf(progress.at(-1)!));
  });

  it('reports every attempt of a failing step and fails with the reason', async () => {
    await startAgent();
    fake.command(
      'c2',
      command([
        step(1, 'CMD', { command: 'echo trying; exit 3' }, { retryCount: 2, stepName: 'Flaky' }),
        step(2, 'CMD', { command: 'echo never' }),
      ]),
    );
    const res = await result('c2');
    expect(res).toMatchObject({
      status: 'failed',
      result: { deploymentStatus: 'failed', rebootRequired: false },
      error: 'Step 1 (Flaky) failed: Exit code 3',
    });
    const ends = fake.progress('c2').filter((m) => m.status !== 'running');
    expect(ends.map((m) => [m.stepOrder, m.status, m.attempt ?? null, m.exitCode ?? null])).toEqual([
      [1, 'failed', 1, 3],
      [1, 'failed', 2, 3],
      [1, 'failed', 3, 3],
      [2, 'cancelled', null, null],
    ]);
    expect(ends.at(-1)?.errorMessage).toBe('Not run: an earlier step failed');
  });

  it('stops a running step on cancel: the process is killed, the rest reported cancelled', async () => {
    await startAgent();
    const pidFile = path.join(dir, 'pid');
    fake.command(
      'c3',
      command([
        step(1, 'CMD', { command: `echo $$ > '${pidFile}'; echo started; sleep 30` }),
        step(2, 'CMD', { command: 'echo never' }),
      ]),
    );
    await fake.waitFor(() => fake.progress('c3').some((m) => m.stdout === 'started\n'));
    const pid = Number((await readFile(pidFile, 'utf8')).trim());
    fake.command('k3', { kind: 'cancel', targetCommandId: 'c3' });
    expect(await result('k3')).toMatchObject({ status: 'completed', result: { cancelled: true } });
    expect(await result('c3')).toMatchObject({
      status: 'failed',
      result: { deploymentStatus: 'cancelled', rebootRequired: false },
      error: 'Deployment cancelled',
    });
    const ends = fake.progress('c3').filter((m) => m.status !== 'running');
    expect(ends.map((m) => [m.stepOrder, m.status, m.errorMessage])).toEqual([
      [1, 'cancelled', 'Deployment cancelled'],
      [2, 'cancelled', 'Deployment cancelled'],
    ]);
    expect(() => process.kill(pid, 0)).toThrow();
    // a cancel for a deployment that has ended has nothing to stop
    fake.command('k4', { kind: 'cancel', targetCommandId: 'c3' });
    expect(await result('k4')).toMatchObject({
      status: 'completed',
      result: { cancelled: false, reason: 'The deployment has already finished' },
    });
    fake.command('k5', { kind: 'cancel', targetCommandId: 'unknown' });
    expect(await result('k5')).toMatchObject({ result: { cancelled: false, reason: 'Nothing to cancel' } });
  });

  it('runs deployments one at a time; one waiting for its turn can be cancelled', async () => {
    await startAgent();
    const log = path.join(dir, 'order');
    const job = (name: string, seconds: number) =>
      command([
        step(1, 'CMD', {
          command: `echo start ${name} >> '${log}'; sleep ${seconds}; echo end ${name} >> '${log}'`,
        }),
      ]);
    fake.command('q1', job('one', 1));
    fake.command('q2', job('two', 0));
    fake.command('q3', job('three', 0));
    fake.command('k3', { kind: 'cancel', targetCommandId: 'q3' });
    expect(await result('k3')).toMatchObject({ result: { cancelled: true } });
    // the cancelled one answers at once, while the first still runs
    expect(await result('q3')).toMatchObject({ result: { deploymentStatus: 'cancelled' } });
    expect(fake.result('q1')).toBeUndefined();
    await result('q2');
    expect(fake.progress('q3').map((m) => [m.status, m.errorMessage])).toEqual([
      ['cancelled', 'Deployment cancelled'],
    ]);
    expect(await readFile(log, 'utf8')).toBe('start one\nend one\nstart two\nend two\n');
    expect(fake.progress('q2')[0]?.seq).toBe(1);
  });

  it('runs a re-offered deployment once', async () => {
    await startAgent();
    const marker = path.join(dir, 'runs');
    const cmd = command([step(1, 'CMD', { command: `echo run >> '${marker}'; sleep 0.3` })]);
    fake.command('c6', cmd);
    fake.command('c6', cmd);
    await result('c6');
    fake.command('c6', cmd);
    fake.command('k6', { kind: 'cancel', targetCommandId: 'nothing' });
    await result('k6');
    expect(await readFile(marker, 'utf8')).toBe('run\n');
    expect(fake.received.filter((m) => m.type === 'command_result' && m.commandId === 'c6')).toHaveLength(1);
  });

  it('after a restart, answers a deployment that was running failed instead of running it again', async () => {
    const journal: RunJournal = createMemoryJournal();
    const first = await startAgent({ journal });
    const marker = path.join(dir, 'runs');
    const cmd = command([step(1, 'CMD', { command: `echo run >> '${marker}'; echo started; sleep 30` })]);
    fake.command('c7', cmd);
    await fake.waitFor(() => fake.progress('c7').some((m) => m.stdout === 'started\n'));
    await first.stop();
    const sentBefore = fake.progress('c7').length;
    expect(fake.result('c7')).toBeUndefined();

    await startAgent({ journal });
    fake.command('c7', cmd); // the server offers it again
    expect(await result('c7')).toMatchObject({
      status: 'failed',
      result: { deploymentStatus: 'failed', rebootRequired: false },
      error: INTERRUPTED_MESSAGE,
    });
    expect(await readFile(marker, 'utf8')).toBe('run\n');
    expect(fake.progress('c7')).toHaveLength(sentBefore);
  });
});

describe('deployment files on the real agent', () => {
  const SCRIPT = '#!/bin/sh\necho "installer ran with $1"\nexit 0\n';

  it('downloads an uploaded file with the device credentials, checks its sha256 and runs it', async () => {
    await startAgent();
    fake.files.set(5, Buffer.from(SCRIPT));
    fake.command(
      'f1',
      command([
        step(1, 'EXE', {
          source_type: 'upload',
          file: { id: 5, originalFilename: 'install.sh', sha256: sha256(SCRIPT) },
          arguments: '--quiet',
        }),
      ]),
    );
    expect(await result('f1')).toMatchObject({ status: 'completed' });
    expect(
      fake
        .progress('f1')
        .map((m) => m.stdout ?? '')
        .join(''),
    ).toBe('installer ran with --quiet\n');
    expect(fake.fileRequests[0]).toMatchObject({
      'x-outpost-device': DEVICE.deviceGuid,
      authorization: `Bearer ${DEVICE.agentSecret}`,
    });
  });

  it('refuses a file whose sha256 differs, or that comes without one, and shows the server refusal', async () => {
    await startAgent();
    fake.files.set(5, Buffer.from(SCRIPT));
    const exe = (order: number, file: Record<string, unknown>) =>
      step(order, 'EXE', { source_type: 'upload', file }, { failDeploymentOnError: false });
    fake.command(
      'f2',
      command([
        exe(1, { id: 5, originalFilename: 'install.sh', sha256: sha256('something else') }),
        exe(2, { id: 5, originalFilename: 'install.sh' }),
        exe(3, { id: 99, originalFilename: 'gone.sh', sha256: sha256('x') }),
      ]),
    );
    await result('f2');
    const errors = fake
      .progress('f2')
      .filter((m) => m.status === 'failed')
      .map((m) => m.errorMessage);
    expect(errors).toEqual([
      'install.sh failed its integrity check (sha256 mismatch); not used',
      'Could not download install.sh: the server gave no sha256 checksum for it, so it cannot be verified',
      'Could not download gone.sh: the server refused it: File not found',
    ]);
  });

  it('checks a file against the server’s sha256 header when its reference has none', async () => {
    await startAgent();
    fake.files.set(6, Buffer.from(SCRIPT));
    fake.fileHashHeaders.set(6, sha256(SCRIPT));
    fake.files.set(7, Buffer.from(SCRIPT));
    fake.fileHashHeaders.set(7, sha256('tampered'));
    fake.command(
      'f4',
      command([
        step(1, 'EXE', { source_type: 'upload', file: { id: 6, originalFilename: 'a.sh' } }),
        step(2, 'EXE', { source_type: 'upload', file: { id: 7, originalFilename: 'b.sh' } }),
      ]),
    );
    expect(await result('f4')).toMatchObject({
      status: 'failed',
      error:
        'Step 2 (Step 2) failed: Could not download b.sh: it does not match its sha256 checksum; not used',
    });
    expect(fake.progress('f4').find((m) => m.stepOrder === 1 && m.status === 'completed')).toBeDefined();
  });

  it('downloads a URL source following redirects, and fails clearly on an error status', async () => {
    await startAgent();
    const hash = sha256(DOWNLOADED_TOOL);
    fake.command(
      'f3',
      command([
        step(1, 'EXE', { source_type: 'url', url: `${fake.url}/moved/tool.sh`, sha256: hash }),
        step(
          2,
          'EXE',
          { source_type: 'url', url: `${fake.url}/missing/tool.sh`, sha256: hash },
          { failDeploymentOnError: false },
        ),
      ]),
    );
    expect(await result('f3')).toMatchObject({ status: 'completed' });
    const progress = fake.progress('f3');
    expect(
      progress
        .filter((m) => m.stepOrder === 1)
        .map((m) => m.stdout ?? '')
        .join(''),
    ).toBe(
      `Downloaded ${fake.url}/moved/tool.sh: ${DOWNLOADED_TOOL.length} bytes, sha256 ${hash} (matches the Expected SHA-256)\n` +
        'downloaded tool ran\n',
    );
    expect(progress.find((m) => m.stepOrder === 2 && m.status === 'failed')?.errorMessage).toBe(
      `Could not download ${fake.url}/missing/tool.sh: HTTP 404 Not Found`,
    );
  });
});
