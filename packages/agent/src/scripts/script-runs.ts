import { AGENT_DEVICE_HEADER } from '@outpost/contract/agent-protocol';
import type { RunScriptCommand } from '@outpost/contract/agent-protocol';
import { agentScriptSecretsPath } from '@outpost/contract/script-runs';
import type { AgentConnection, Logger } from '../connection';
import type { RunJournal } from '../deployment/journal';
import { ProgressStream } from '../deployment/progress';
import type { ProgressOptions } from '../deployment/progress';
import type { ScriptExecutor } from './run-script';

// A run_script command on the agent (docs/agent.md "Scripts"): its secrets fetched from the
// server with the device's credentials, the run's reports numbered as step_progress of the job's
// one step (deployment/progress.ts, as a deployment's), its end a command_result. Scripts do not
// wait for deployments; `cancel` aborts one as it does a deployment (the `running` map).

/** GET /api/agent/script-runs/{commandId}/secrets: the values, by name. */
export type FetchSecrets = (commandId: string, signal: AbortSignal) => Promise<Record<string, string>>;

export function createSecretsFetcher(credentials: {
  server: string;
  deviceGuid: string;
  agentSecret: string;
}): FetchSecrets {
  return async (commandId, signal) => {
    const res = await fetch(new URL(agentScriptSecretsPath(commandId), credentials.server), {
      headers: {
        [AGENT_DEVICE_HEADER]: credentials.deviceGuid,
        authorization: `Bearer ${credentials.agentSecret}`,
      },
      signal,
    });
    if (res.status !== 200) {
      throw new Error(`The server did not give the script's secret parameters (HTTP ${res.status})`);
    }
    const body = (await res.json()) as { secrets?: Record<string, unknown> };
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(body.secrets ?? {})) {
      if (typeof v === 'string') {
        out[k] = v;
      }
    }
    return out;
  };
}

/** As agent-commands.ts's (not imported: that file imports this one). */
type Running = { controller: AbortController; stream: ProgressStream; done: Promise<void> };
type SendResult = (
  commandId: string,
  status: 'completed' | 'failed',
  res: Record<string, unknown> | null,
  error: string | null,
) => void;

export type ScriptRunContext = {
  journal: RunJournal;
  running: Map<string, Running>;
  state: { isStopping: boolean };
  connection: Pick<AgentConnection, 'sendReliable'>;
  scripts: ScriptExecutor;
  fetchSecrets: FetchSecrets;
  progress?: Partial<ProgressOptions>;
  log?: Logger;
  result: SendResult;
};

const INTERRUPTED =
  'The agent restarted while this script was running, so it was stopped; it is not run again';

export async function runScript(
  ctx: ScriptRunContext,
  commandId: string,
  command: RunScriptCommand,
): Promise<void> {
  const { journal, running, connection } = ctx;
  const before = journal.get(commandId);
  if (before === 'finished') {
    return;
  }
  const answer = (
    status: 'completed' | 'failed' | 'cancelled',
    extra: Record<string, unknown>,
    error: string | null,
  ) => {
    ctx.result(
      commandId,
      status === 'completed' ? 'completed' : 'failed',
      { deploymentStatus: status, rebootRequired: false, ...extra },
      error,
    );
    journal.set(commandId, 'finished');
  };
  if (before !== undefined) {
    answer('failed', {}, INTERRUPTED);
    return;
  }
  const controller = new AbortController();
  const stream = new ProgressStream(commandId, (m) => connection.sendReliable(m), ctx.progress);
  let finishRun: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finishRun = resolve));
  running.set(commandId, { controller, stream, done });
  journal.set(commandId, 'running');
  try {
    const secrets =
      command.secretNames.length === 0 ? {} : await ctx.fetchSecrets(commandId, controller.signal);
    const outcome = await ctx.scripts(command, {
      report: (p) => stream.report(p),
      signal: controller.signal,
      secrets,
    });
    if (ctx.state.isStopping) {
      return;
    }
    stream.close();
    answer(outcome.status, { exitCode: outcome.exitCode, durationMs: outcome.durationMs }, outcome.error);
  } catch (err) {
    if (ctx.state.isStopping) {
      return;
    }
    const why = err instanceof Error ? err.message : String(err);
    stream.report({
      stepOrder: 1,
      attempt: 1,
      status: 'failed',
      errorMessage: why,
      startedAt: new Date().toISOString(),
      completedAt: new Date().toISOString(),
    });
    stream.close();
    ctx.log?.error('script failed', { commandId, err: why });
    answer('failed', {}, why);
  } finally {
    running.delete(commandId);
    finishRun();
  }
}

/** The agent's run_script handler: its context from the agent's options and state. */
export function scriptCommandRunner(
  o: Omit<ScriptRunContext, 'scripts' | 'fetchSecrets'> & {
    scripts?: ScriptExecutor;
    server: string;
    deviceGuid: string;
    agentSecret: string;
  },
) {
  const ctx: ScriptRunContext = {
    journal: o.journal,
    running: o.running,
    state: o.state,
    connection: o.connection,
    scripts: o.scripts ?? (() => Promise.reject(new Error('This agent does not run scripts'))),
    fetchSecrets: createSecretsFetcher(o),
    progress: o.progress,
    log: o.log,
    result: o.result,
  };
  return (commandId: string, command: RunScriptCommand) => runScript(ctx, commandId, command);
}
