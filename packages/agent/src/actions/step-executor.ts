import { appendFileSync } from 'node:fs';
import type { UserSession } from '@outpost/contract/agent-protocol';
import { isDryRun } from './executor';
import type { Runner } from './executor';
import { defaultRunner, messageCommands, promptCommand, rebootCommands } from './user-commands';
import type { RebootRequest, UserNotice } from './user-commands';

// What the REBOOT and MESSAGE steps do to the device and its user (docs/product/rollouts.md
// "Reboot, message and wait steps"), behind one interface: the real one runs the OS's commands
// (user-commands.ts), tests and the simulator record what would have happened and never touch
// the host.

export type { RebootRequest, UserNotice } from './user-commands';
export type RestartAnswer = 'now' | 'later' | 'unsupported';

export type StepExecutor = {
  /** the users logged in now (the device backend's sessions) */
  sessions(): Promise<UserSession[]>;
  /** shows a notice to the logged-in users */
  showMessage(notice: UserNotice): Promise<void>;
  /**
   * asks the logged-in user "Restart now or later?"; no answer within the notice's time-out is
   * "now"; 'unsupported' where the OS has no such prompt (Linux)
   */
  askRestart(notice: UserNotice, signal: AbortSignal): Promise<RestartAnswer>;
  /** orders the restart; resolves once it is ordered (the OS ends the agent later) */
  reboot(request: RebootRequest): Promise<void>;
};

export type RecordedStepCall =
  | { kind: 'message'; notice: UserNotice }
  | { kind: 'ask_restart'; notice: UserNotice; answer: RestartAnswer }
  | { kind: 'reboot'; request: RebootRequest };

export type RecordingStepOptions = {
  /** the logged-in users (default: none) */
  sessions?: () => UserSession[] | Promise<UserSession[]>;
  /** the answers the "user" gives to restart prompts, in order; then "now" */
  answers?: RestartAnswer[];
  /** called after a reboot is recorded (the simulator powers the machine off) */
  onReboot?: (request: RebootRequest) => void;
  /** each call is also appended to this file as a JSON line (system tests read it) */
  file?: string;
};

/** Records every call; never touches the host. */
export class RecordingStepExecutor implements StepExecutor {
  readonly calls: RecordedStepCall[] = [];
  private readonly answers: RestartAnswer[];

  constructor(private readonly options: RecordingStepOptions = {}) {
    this.answers = [...(options.answers ?? [])];
  }

  private record(call: RecordedStepCall) {
    this.calls.push(call);
    if (this.options.file) {
      appendFileSync(this.options.file, `${JSON.stringify({ ...call, at: new Date().toISOString() })}\n`);
    }
  }

  async sessions() {
    return (await this.options.sessions?.()) ?? [];
  }

  showMessage(notice: UserNotice) {
    this.record({ kind: 'message', notice });
    return Promise.resolve();
  }

  askRestart(notice: UserNotice, _signal?: AbortSignal) {
    const answer = this.answers.shift() ?? 'now';
    this.record({ kind: 'ask_restart', notice, answer });
    return Promise.resolve(answer);
  }

  reboot(request: RebootRequest) {
    this.record({ kind: 'reboot', request });
    this.options.onReboot?.(request);
    return Promise.resolve();
  }
}

/**
 * The agent's step executor: the real one, or under a dry run (OUTPOST_AGENT_DRY_RUN, tests) a
 * recording one. OUTPOST_AGENT_STEP_RECORD=<file> makes that recording one append its calls to
 * the file (system tests read it); it has no effect without the dry run, so it can never stop a
 * real agent from restarting or make one restart (docs/agent.md "Environment").
 */
export function agentStepExecutor(sessions: () => Promise<UserSession[]>): StepExecutor {
  if (isDryRun()) {
    return new RecordingStepExecutor({ sessions, file: process.env.OUTPOST_AGENT_STEP_RECORD || undefined });
  }
  return new SystemStepExecutor(sessions);
}

/**
 * The real thing: messages, prompts and restarts through the OS's own programs. It refuses to
 * act under tests (isDryRun), whatever the caller asked.
 */
export class SystemStepExecutor implements StepExecutor {
  constructor(
    private readonly sessionsOf: () => Promise<UserSession[]>,
    private readonly platform: NodeJS.Platform = process.platform,
    private readonly runner?: Runner,
  ) {}

  private get run(): Runner {
    if (!this.runner && isDryRun()) {
      throw new Error('SystemStepExecutor refused: dry run (tests or OUTPOST_AGENT_DRY_RUN)');
    }
    return this.runner ?? defaultRunner;
  }

  sessions() {
    return this.sessionsOf();
  }

  async showMessage(notice: UserNotice) {
    const run = this.run;
    const commands = await messageCommands(this.platform, notice, await this.sessions(), run);
    // a notice is best effort per session: one that cannot be reached does not stop the others
    const shown = Promise.allSettled(commands.map((c) => run(c.file, c.args)));
    if (this.platform === 'darwin') {
      return; // a dialog stays until it is closed or gives up: the deployment does not wait for it
    }
    const results = await shown;
    const failed = results.find((r) => r.status === 'rejected');
    if (failed && results.every((r) => r.status === 'rejected')) {
      throw new Error(`The message could not be shown: ${String(failed.reason)}`);
    }
  }

  async askRestart(notice: UserNotice): Promise<RestartAnswer> {
    const run = this.run;
    const command = await promptCommand(this.platform, notice, run);
    if (!command) {
      return 'unsupported';
    }
    try {
      const { stdout } = await run(command.file, command.args);
      return /later/i.test(stdout) ? 'later' : 'now';
    } catch {
      // no one could be asked (the dialog failed to open): restart as if no one objected
      return 'now';
    }
  }

  async reboot(request: RebootRequest) {
    const run = this.run;
    if (request.message && this.platform !== 'win32') {
      // Windows shows the message with the restart itself (shutdown /c)
      await this.showMessage({ title: 'Restart', message: request.message }).catch(() => undefined);
    }
    for (const c of rebootCommands(this.platform, request)) {
      await run(c.file, c.args);
    }
  }
}
