import { z } from 'zod';
import { listOf } from './envelope';
import type { ListData } from './envelope';
import { JobStatus } from './live';
import { ScriptLanguage } from './scripts';

// Script runs (docs/product/scripts.md#runs): a run is a deployment job of kind `script`; each
// device's output is one stream in which stderr lines carry a mark, so stdout and stderr stay in
// the order the script printed them.

/** A line of a run's output that starts with this character came from stderr. */
export const STDERR_MARK = '\u001e';

/** What a secret's value is replaced with wherever output is shown or stored. */
export const SECRET_MASK = '••••';

/** GET: an agent fetches the secret values of its own running run_script command. */
export const agentScriptSecretsPath = (commandId: string) => `/api/agent/script-runs/${commandId}/secrets`;
export type AgentScriptSecrets = { secrets: Record<string, string> };

/** The name a run's job has: the script's name and version. */
export const scriptRunName = (name: string, version: number) => `${name} (v${version})`;

/** The job's single step (the engine's step log holds the run's output, exit code and duration). */
export const SCRIPT_STEP_ORDER = 1;
export const SCRIPT_STEP_NAME = 'Run script';
export const SCRIPT_STEP_TYPE = 'RUN_SCRIPT' as const;

export type OutputLine = { stream: 'stdout' | 'stderr'; text: string };

/** Splits a run's stored output into lines, stderr's unmarked. */
export function outputLines(text: string): OutputLine[] {
  if (text === '') {
    return [];
  }
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
  return lines.map((line) =>
    line.startsWith(STDERR_MARK)
      ? { stream: 'stderr', text: line.slice(STDERR_MARK.length) }
      : { stream: 'stdout', text: line },
  );
}

/**
 * Replaces every secret value in `text` (longest first, so one secret inside another is masked
 * whole). Values shorter than 3 characters are masked too: a secret is never shown.
 */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of [...secrets].filter((v) => v.length > 0).sort((a, b) => b.length - a.length)) {
    out = out.split(s).join(SECRET_MASK);
  }
  return out;
}

export const ScriptRunsQuery = z.object({
  script_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  page: z.coerce.number().int().positive().max(100_000).default(1),
  limit: z.coerce.number().int().positive().max(100).default(20),
});
export type ScriptRunsQuery = z.infer<typeof ScriptRunsQuery>;

export type ScriptRunCounts = {
  total: number;
  succeeded: number;
  failed: number;
  running: number;
  pending: number;
};

export type ScriptRunSummary = {
  id: number;
  script_id: number | null;
  script_name: string;
  version: number;
  language: ScriptLanguage;
  status: JobStatus;
  created_at: string;
  created_by_name: string | null;
  completed_at: string | null;
  devices: ScriptRunCounts;
};

export type ScriptRunDevice = {
  id: number;
  device_id: string | null;
  hostname: string | null;
  status: JobStatus;
  exit_code: number | null;
  duration_ms: number | null;
  started_at: string | null;
  completed_at: string | null;
  error_message: string | null;
  /** stdout and stderr in order, stderr lines marked with STDERR_MARK; the middle of a long output cut */
  output: string;
  /** bytes left out of the middle of the output */
  output_cut_bytes: number;
};

export type ScriptRunDetail = ScriptRunSummary & {
  timeout_seconds: number;
  offline: 'wait' | 'skip';
  params: Record<string, string>;
  secret_names: string[];
  rows: ScriptRunDevice[];
};

export type ScriptRunsPage = ListData<ScriptRunSummary>;

/** The marker a cut output shows where its middle was left out. */
export const outputCutMarker = (bytes: number) => `… ${bytes.toLocaleString('en-US')} bytes left out …`;

// The same shapes as zod schemas, for the routes' response schemas: the OpenAPI document (and the
// typed client generated from it, packages/client) describes a run's answers, and the tests check
// each answer against them. `Same` below keeps each schema equal to its type above.
export const ScriptRunCountsSchema = z.object({
  total: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  running: z.number().int(),
  pending: z.number().int(),
});

export const ScriptRunSummarySchema = z.object({
  id: z.number().int(),
  script_id: z.number().int().nullable(),
  script_name: z.string(),
  version: z.number().int(),
  language: ScriptLanguage,
  status: JobStatus,
  created_at: z.string(),
  created_by_name: z.string().nullable(),
  completed_at: z.string().nullable(),
  devices: ScriptRunCountsSchema,
});

export const ScriptRunDeviceSchema = z.object({
  id: z.number().int(),
  device_id: z.string().nullable(),
  hostname: z.string().nullable(),
  status: JobStatus,
  exit_code: z.number().int().nullable(),
  duration_ms: z.number().int().nullable(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  error_message: z.string().nullable(),
  output: z.string(),
  output_cut_bytes: z.number().int(),
});

export const ScriptRunDetailSchema = ScriptRunSummarySchema.extend({
  timeout_seconds: z.number().int(),
  offline: z.enum(['wait', 'skip']),
  params: z.record(z.string(), z.string()),
  secret_names: z.array(z.string()),
  rows: z.array(ScriptRunDeviceSchema),
});

export const ScriptRunsPageSchema = listOf(ScriptRunSummarySchema);

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const scriptRunSchemasMatch: [
  Same<z.infer<typeof ScriptRunSummarySchema>, ScriptRunSummary>,
  Same<z.infer<typeof ScriptRunDetailSchema>, ScriptRunDetail>,
  Same<z.infer<typeof ScriptRunsPageSchema>, ScriptRunsPage>,
] = [true, true, true];
