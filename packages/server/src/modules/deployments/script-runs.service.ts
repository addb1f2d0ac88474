import type { JobStatus } from '@outpost/contract/live';
import { deploymentMessages as messages, messages as commonMessages } from '@outpost/contract/messages';
import { maskSecrets, outputCutMarker } from '@outpost/contract/script-runs';
import type {
  ScriptRunCounts,
  ScriptRunDetail,
  ScriptRunDevice,
  ScriptRunsPage,
  ScriptRunsQuery,
  ScriptRunSummary,
} from '@outpost/contract/script-runs';
import { paginate } from '@outpost/contract/envelope';
import type { RequestContext } from '../../lib/context';
import { notFound, unauthorized } from '../../lib/errors';
import { createSecretBox } from '../../lib/secret-box';
import { authenticateAgent } from '../agents/agent-auth';
import { cancelJob } from './cancel-job';
import type { CancelDeps } from './cancel-job';
import type { JobRow } from './deployments.queries';
import type { AgentCredentials } from './deployments.service';
import type { OutputMask } from './engine/agent-progress';
import { STEP_LOG_HEAD_CHARS } from './step-log-rules';
import {
  activeScriptJobOfCommand,
  countsByStatus,
  findRun,
  listRuns,
  runDeviceRows,
} from './script-runs.queries';

// Script runs' history, results and cancel (docs/product/scripts.md#runs), and their secrets:
// sealed in the job with the library's key (purpose 'scripts'), opened only to mask output and
// for the agent whose run_script command is running (docs/product/scripts.md#secrets).

/** The secrets of a script job, opened with the server's scripts key; cached per job. */
export function createScriptSecrets(serverSecret: Uint8Array) {
  const box = createSecretBox(serverSecret, 'scripts');
  const cache = new Map<number, string[]>();
  const open = (job: Pick<JobRow, 'scriptRun'>): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const [name, sealed] of Object.entries(job.scriptRun?.sealed_secrets ?? {})) {
      const plain = box.open(sealed);
      if (plain !== null) {
        out[name] = plain;
      }
    }
    return out;
  };
  const valuesOf = (job: JobRow): string[] => {
    let values = cache.get(job.id);
    if (!values) {
      values = Object.values(open(job));
      if (cache.size >= 500) {
        cache.delete(cache.keys().next().value as number);
      }
      cache.set(job.id, values);
    }
    return values;
  };
  const maskOutput: OutputMask = (job, text) => {
    if (job.kind !== 'script' || Object.keys(job.scriptRun?.sealed_secrets ?? {}).length === 0) {
      return text;
    }
    return maskSecrets(text, valuesOf(job));
  };
  return { open, maskOutput };
}
export type ScriptSecrets = ReturnType<typeof createScriptSecrets>;

function countsOf(byStatus: Map<JobStatus, number> | undefined): ScriptRunCounts {
  const n = (s: JobStatus) => byStatus?.get(s) ?? 0;
  const failed = n('failed') + n('cancelled');
  const running = n('running');
  const pending = n('pending');
  return {
    total: n('completed') + failed + running + pending,
    succeeded: n('completed'),
    failed,
    running,
    pending,
  };
}

function summaryOf(job: JobRow, counts: ScriptRunCounts): ScriptRunSummary {
  const spec = job.scriptRun;
  return {
    id: job.id,
    script_id: spec?.script_id ?? null,
    script_name: spec?.script_name ?? job.packageName,
    version: spec?.version ?? 0,
    language: spec?.language ?? 'bash',
    status: job.status,
    created_at: job.createdAt.toISOString(),
    created_by_name: job.createdByName,
    completed_at: job.completedAt?.toISOString() ?? null,
    devices: counts,
  };
}

/** A stored output as shown: the marker where its middle was left out. */
export function shownOutput(text: string, cutBytes: number): string {
  if (cutBytes <= 0) {
    return text;
  }
  const points = Array.from(text);
  const head = points.slice(0, STEP_LOG_HEAD_CHARS).join('');
  const tail = points.slice(STEP_LOG_HEAD_CHARS).join('');
  return `${head}${head.endsWith('\n') ? '' : '\n'}${outputCutMarker(cutBytes)}\n${tail}`;
}

export function createScriptRunsService(deps: CancelDeps & { secrets: ScriptSecrets }) {
  const { db } = deps;

  async function detail(ctx: RequestContext, id: number): Promise<ScriptRunDetail> {
    const job = await findRun(db, ctx, id);
    if (!job?.scriptRun) {
      throw notFound(messages.notFound, 'SCRIPT_RUN_NOT_FOUND');
    }
    const counts = await countsByStatus(db, ctx, [id]);
    const rows: ScriptRunDevice[] = (await runDeviceRows(db, ctx, id)).map((r) => ({
      id: r.id,
      device_id: r.deviceGuid,
      hostname: r.hostname,
      status: r.status,
      exit_code: r.exitCode,
      duration_ms: r.durationMs,
      started_at: r.startedAt?.toISOString() ?? null,
      completed_at: r.completedAt?.toISOString() ?? null,
      error_message: r.errorMessage,
      output: shownOutput(r.stdoutLog ?? '', r.stdoutCutBytes ?? 0),
      output_cut_bytes: r.stdoutCutBytes ?? 0,
    }));
    const spec = job.scriptRun;
    return {
      ...summaryOf(job, countsOf(counts.get(id))),
      timeout_seconds: spec.timeout_seconds,
      offline: spec.offline,
      params: spec.params,
      secret_names: Object.keys(spec.sealed_secrets).sort(),
      rows,
    };
  }

  return {
    async list(ctx: RequestContext, query: ScriptRunsQuery): Promise<ScriptRunsPage> {
      const { rows, total } = await listRuns(db, ctx, {
        scriptId: query.script_id,
        limit: query.limit,
        offset: (query.page - 1) * query.limit,
      });
      const counts = await countsByStatus(
        db,
        ctx,
        rows.map((r) => r.id),
      );
      return {
        data: rows.map((r) => summaryOf(r, countsOf(counts.get(r.id)))),
        pagination: paginate(query.page, query.limit, total),
      };
    },

    detail,

    /** The engine's cancel (its audit entry, cancel commands to running agents); a run only. */
    async cancel(ctx: RequestContext, id: number): Promise<ScriptRunDetail> {
      if (!(await findRun(db, ctx, id))) {
        throw notFound(messages.notFound, 'SCRIPT_RUN_NOT_FOUND');
      }
      await cancelJob(deps, ctx, id);
      return detail(ctx, id);
    },

    /**
     * GET /api/agent/script-runs/{commandId}/secrets: the agent proves its device (401 otherwise)
     * and gets the secret values of its own run_script command while that runs (404 otherwise).
     */
    async agentSecrets(credentials: AgentCredentials, commandId: string): Promise<Record<string, string>> {
      const { deviceGuid, secret } = credentials;
      if (deviceGuid === null || !secret) {
        throw unauthorized(commonMessages.agentAuthMissing, 'AGENT_AUTH_REQUIRED');
      }
      const device = await authenticateAgent(db, deviceGuid, secret);
      if (!device) {
        throw unauthorized(commonMessages.agentAuthFailed, 'AGENT_AUTH_FAILED');
      }
      const job = await activeScriptJobOfCommand(db, device.id, commandId);
      if (!job || job.tenantId !== device.tenantId) {
        throw notFound(messages.notFound, 'SCRIPT_RUN_NOT_FOUND');
      }
      return deps.secrets.open(job);
    },
  };
}
export type ScriptRunsService = ReturnType<typeof createScriptRunsService>;
