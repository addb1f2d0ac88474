import { compareVersions } from '@outpost/contract/groups';
import { targetOsLabel } from '@outpost/contract/targets';
import type { StepCondition } from '@outpost/contract/step-conditions';

// docs/product/rollouts.md#step-conditions — a step's conditions, checked on the device before the
// step runs: all must hold (AND). The first false one is the step's skip reason; a condition that
// cannot be checked (a probe failed) is an error, and the step fails with it. Where the answers
// come from is injected: the real machine (condition-probes.ts) or a simulated one
// (sim/sim-conditions.ts).

export type ConditionProbes = {
  platform: NodeJS.Platform;
  /** the variables %NAME% / $NAME in a path expand to */
  env: Record<string, string | undefined>;
  /** the agent's facts, as the inventory reports them */
  facts(): Promise<{ osVersion: string | null; architecture: string | null }>;
  /** true when a file or folder is there; false when it is not; throws when it cannot be told */
  pathExists(path: string): Promise<boolean>;
  /** Windows: the value, null when the key or value does not exist */
  readRegistry(hive: string, keyPath: string, valueName: string): Promise<{ data: string } | null>;
  /** the names of the running programs (app.exe) */
  processNames(): Promise<string[]>;
  /** the accounts with a session open now */
  loggedInUsers(): Promise<string[]>;
};

/** What a step loop knows of the steps that ran before this one in this run. */
export type EarlierStep = { stepOrder: number; exitCode: number | null };

export type ConditionVerdict = { holds: true } | { holds: false; reason: string };

/** A condition that could not be checked: the step fails with this. */
export class ConditionError extends Error {}

/** The version a condition compares: the last dotted number of the facts' OS version (10.0.22631 of "Windows 11 Pro 10.0.22631"). */
export function conditionOsVersion(osVersion: string | null): string | null {
  if (!osVersion) {
    return null;
  }
  const dotted = osVersion.match(/\d+(?:\.\d+)+/g);
  if (dotted) {
    return dotted.at(-1) ?? null;
  }
  return osVersion.match(/\d+/g)?.at(-1) ?? null;
}

/** %NAME% on Windows (case-insensitive), $NAME and ${NAME} elsewhere; an unknown variable stays as written. */
export function expandEnv(
  path: string,
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform,
): string {
  if (platform === 'win32') {
    const lower = new Map(Object.entries(env).map(([k, v]) => [k.toLowerCase(), v]));
    return path.replace(/%([^%\s]+)%/g, (all, name: string) => lower.get(name.toLowerCase()) ?? all);
  }
  return path.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (all, a?: string, b?: string) => {
      const value = env[a ?? b ?? ''];
      return value ?? all;
    },
  );
}

const bareUser = (name: string) => (name.split('\\').pop() ?? name).trim().toLowerCase();
const bareProcess = (name: string) => name.trim().toLowerCase();

async function checkOne(
  c: StepCondition,
  probes: ConditionProbes,
  earlier: readonly EarlierStep[],
): Promise<string | null> {
  switch (c.kind) {
    case 'os_version': {
      const version = conditionOsVersion((await probes.facts()).osVersion);
      if (version === null) {
        throw new ConditionError('the OS version of this device is not known');
      }
      if (c.min !== undefined && (compareVersions(version, c.min) ?? 0) < 0) {
        return `the OS version is ${version}, below ${c.min}`;
      }
      if (c.max !== undefined && (compareVersions(version, c.max) ?? 0) > 0) {
        return `the OS version is ${version}, above ${c.max}`;
      }
      return null;
    }
    case 'architecture': {
      const arch = (await probes.facts()).architecture;
      if (arch === null) {
        throw new ConditionError('the architecture of this device is not known');
      }
      return c.architectures.some((a) => a === arch)
        ? null
        : `the device is ${arch}, not ${c.architectures.join(' or ')}`;
    }
    case 'path': {
      const path = expandEnv(c.path, probes.env, probes.platform);
      const exists = await probes.pathExists(path);
      if (c.operator === 'exists') {
        return exists ? null : `${path} does not exist`;
      }
      return exists ? `${path} exists` : null;
    }
    case 'registry':
      return checkRegistry(c, probes);
    case 'process': {
      const running = (await probes.processNames()).some((n) => processMatches(n, c.name, probes.platform));
      if (c.operator === 'running') {
        return running ? null : `${c.name} is not running`;
      }
      return running ? `${c.name} is running` : null;
    }
    case 'user_logged_in': {
      const users = await probes.loggedInUsers();
      const wanted = c.user?.trim() ? bareUser(c.user) : null;
      const matching = users.filter((u) => wanted === null || bareUser(u) === wanted);
      const who = c.user?.trim() ? c.user.trim() : null;
      if (c.operator === 'logged_in') {
        return matching.length > 0 ? null : who ? `${who} is not logged in` : 'no user is logged in';
      }
      return matching.length === 0
        ? null
        : who
          ? `${who} is logged in`
          : `a user is logged in (${matching[0]})`;
    }
    case 'exit_code':
      return checkExitCode(c, earlier);
  }
}

/** Linux shows a program's name cut to 15 characters; a longer name matches its first 15. */
function processMatches(running: string, wanted: string, platform: NodeJS.Platform): boolean {
  const a = bareProcess(running);
  const b = bareProcess(wanted);
  if (a === b) {
    return true;
  }
  return platform === 'linux' && b.length > 15 && a === b.slice(0, 15);
}

async function checkRegistry(
  c: Extract<StepCondition, { kind: 'registry' }>,
  probes: ConditionProbes,
): Promise<string | null> {
  if (probes.platform !== 'win32') {
    const os = targetOsLabel(probes.platform === 'darwin' ? 'macos' : 'linux');
    return `registry conditions hold only on Windows (this device runs ${os})`;
  }
  const keyPath = c.key_path.replace(/^\\+|\\+$/g, '');
  const where = `${c.hive}\\${keyPath}${c.value_name ? `\\${c.value_name}` : ' (default value)'}`;
  const value = await probes.readRegistry(c.hive, keyPath, c.value_name ?? '');
  if (value === null) {
    return `${where} does not exist`;
  }
  if (c.operator === 'exists') {
    return null;
  }
  return sameRegistryData(value.data, c.value ?? '')
    ? null
    : `${where} is ${value.data}, not ${c.value ?? ''}`;
}

/** Text compares as is (case-insensitive, as Windows compares); numbers by value (0x10 = 16). */
function sameRegistryData(actual: string, wanted: string): boolean {
  const a = actual.trim();
  const b = wanted.trim();
  if (a.toLowerCase() === b.toLowerCase()) {
    return true;
  }
  const number = (s: string) => (/^(?:0x[0-9a-f]+|\d+)$/i.test(s) ? BigInt(s) : null);
  const x = number(a);
  const y = number(b);
  return x !== null && y !== null && x === y;
}

function checkExitCode(
  c: Extract<StepCondition, { kind: 'exit_code' }>,
  earlier: readonly EarlierStep[],
): string | null {
  const step = earlier.find((s) => s.stepOrder === c.step_order);
  if (!step || step.exitCode === null) {
    return `step ${c.step_order} has no exit code in this run`;
  }
  const code = step.exitCode;
  const isIn = c.codes.includes(code);
  switch (c.operator) {
    case 'equals':
      return isIn ? null : `step ${c.step_order} exited ${code}, not ${c.codes.join(', ')}`;
    case 'not_equals':
      return isIn ? `step ${c.step_order} exited ${code}` : null;
    case 'in':
      return isIn ? null : `step ${c.step_order} exited ${code}, not one of ${c.codes.join(', ')}`;
  }
}

/**
 * The step's conditions in order; the first false one answers (the rest are not checked). A probe
 * that fails throws a ConditionError naming the condition.
 */
export async function evaluateConditions(
  conditions: readonly StepCondition[],
  probes: ConditionProbes,
  earlier: readonly EarlierStep[],
): Promise<ConditionVerdict> {
  for (const [index, condition] of conditions.entries()) {
    let reason: string | null;
    try {
      reason = await checkOne(condition, probes, earlier);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new ConditionError(`Condition ${index + 1} could not be checked: ${why}`);
    }
    if (reason !== null) {
      return { holds: false, reason };
    }
  }
  return { holds: true };
}

/** The note of a skipped step (docs/product/rollouts.md#step-log). */
export const skippedNote = (reason: string) => `Skipped: ${reason}`;
