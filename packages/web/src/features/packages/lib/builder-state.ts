import { packageMessages as messages } from '@outpost/contract/messages';
import type { Architecture, PackageDetail, PackageStep } from '@outpost/contract/packages';
import { PACKAGE_DEFAULTS, STEP_DEFAULTS, STEP_LIMITS } from '@outpost/contract/packages';
import { MAX_STEPS_PER_PACKAGE } from '@outpost/contract/limits';
import { defaultStepDetails, parseStepDetails } from '@outpost/contract/step-catalog';
import type { StepType } from '@outpost/contract/step-catalog';
import type { StepConditionInput } from '@outpost/contract/step-conditions';
import { stepRunsOn } from '@outpost/contract/targets';
import type { AvailableTargetOs } from '@outpost/contract/targets';

// The builder's working copy of a package (docs/product/packages.md#builder, #fields, #saving package save, #validation).

export type PackageInfo = {
  name: string;
  description: string;
  /** Windows (the default) or Linux; macOS is future (docs/architecture.md "Package targets") */
  target_os: AvailableTargetOs;
  os_version_requirement: string;
  architecture: Architecture;
  package_version: string;
  /** Beyond the original product description: a template is a starting point to duplicate (listed under Templates). */
  is_template: boolean;
  /** The owner site's id as the select holds it; '' = shared with all sites (SECURITY.md R2-5). */
  site_id: string;
};

/** The package's fields as the API takes them (the site as a number, or null for all sites). */
export type PackageBody = Omit<PackageInfo, 'site_id'> & { site_id: number | null };

export const packageBody = (info: PackageInfo): PackageBody => ({
  ...info,
  site_id: info.site_id === '' ? null : Number(info.site_id),
});

export type StepDraft = {
  /** Stable key for the list and drag-and-drop: the saved id, or a temporary id (docs/product/packages.md#fields). */
  key: string;
  /** The saved step's id; null until the step has been saved. */
  id: number | null;
  step_name: string;
  step_type: StepType;
  step_details: Record<string, unknown>;
  fail_deployment_on_error: boolean;
  timeout_seconds: number;
  retry_count: number;
  /** checked on the device before the step runs; none: it always runs (docs/product/rollouts.md#step-conditions) */
  conditions?: StepConditionInput[];
  /** Changed since it was loaded or last saved. */
  isDirty: boolean;
};

export const EMPTY_INFO: PackageInfo = {
  name: '',
  description: '',
  target_os: PACKAGE_DEFAULTS.target_os,
  os_version_requirement: '',
  architecture: PACKAGE_DEFAULTS.architecture,
  package_version: PACKAGE_DEFAULTS.package_version,
  is_template: false,
  site_id: '',
};

let tempCounter = 0;
export const newTempKey = () => `temp-${Date.now().toString(36)}-${(tempCounter++).toString(36)}`;

export function infoFromPackage(p: PackageDetail): PackageInfo {
  return {
    name: p.name,
    description: p.description ?? '',
    target_os: p.target_os === 'macos' ? PACKAGE_DEFAULTS.target_os : p.target_os,
    os_version_requirement: p.os_version_requirement ?? '',
    architecture: p.architecture,
    package_version: p.package_version,
    is_template: p.is_template,
    site_id: p.site_id === null ? '' : String(p.site_id),
  };
}

export function draftFromStep(step: PackageStep): StepDraft {
  return {
    key: `step-${step.id}`,
    id: step.id,
    step_name: step.step_name,
    step_type: step.step_type,
    step_details: step.step_details,
    fail_deployment_on_error: step.fail_deployment_on_error,
    timeout_seconds: step.timeout_seconds,
    retry_count: step.retry_count,
    conditions: step.conditions ?? [],
    isDirty: false,
  };
}

export function newStepDraft(type: StepType): StepDraft {
  return {
    key: newTempKey(),
    id: null,
    step_name: '',
    step_type: type,
    step_details: defaultStepDetails(type),
    fail_deployment_on_error: STEP_DEFAULTS.fail_deployment_on_error,
    timeout_seconds: STEP_DEFAULTS.timeout_seconds,
    retry_count: STEP_DEFAULTS.retry_count,
    conditions: [],
    isDirty: true,
  };
}

/**
 * Why the package cannot be saved yet, in the product's order (docs/product/packages.md#validation); then the owner site a
 * site-limited member must choose, and the step limit (SECURITY.md R2-5, R2-6).
 */
export function packageBlockers(
  info: Pick<PackageInfo, 'name'> & Partial<Pick<PackageInfo, 'site_id'>>,
  steps: readonly unknown[],
  opts: { mustChooseSite?: boolean } = {},
): string[] {
  const blockers: string[] = [];
  if (!info.name.trim()) {
    blockers.push(messages.packageNameRequired);
  }
  if (steps.length === 0) {
    blockers.push(messages.packageStepsRequired);
  }
  if (opts.mustChooseSite && !info.site_id) {
    blockers.push(messages.chooseSite);
  }
  if (steps.length > MAX_STEPS_PER_PACKAGE) {
    blockers.push(messages.tooManySteps(MAX_STEPS_PER_PACKAGE));
  }
  return blockers;
}

/** Why no step can be added, or null (SECURITY.md R2-6: at most MAX_STEPS_PER_PACKAGE). */
export const addStepBlocker = (stepCount: number): string | null =>
  stepCount >= MAX_STEPS_PER_PACKAGE ? messages.stepLimitReached(MAX_STEPS_PER_PACKAGE) : null;

export type StepIssue = {
  field: 'step_name' | 'step_details' | 'timeout_seconds' | 'retry_count';
  message: string;
};

/** Every problem of a step, in the product's order: name, required fields, timeout, retries (docs/product/packages.md#validation). */
export function validateStepDraft(
  step: Pick<StepDraft, 'step_name' | 'step_type' | 'step_details' | 'timeout_seconds' | 'retry_count'>,
): StepIssue[] {
  const issues: StepIssue[] = [];
  if (!step.step_name.trim()) {
    issues.push({ field: 'step_name', message: messages.stepNameRequired });
  }
  const details = parseStepDetails(step.step_type, step.step_details);
  if (!details.success) {
    issues.push({ field: 'step_details', message: details.error });
  }
  const timeout = step.timeout_seconds;
  if (!Number.isInteger(timeout) || timeout < STEP_LIMITS.minTimeout || timeout > STEP_LIMITS.maxTimeout) {
    issues.push({ field: 'timeout_seconds', message: messages.stepTimeoutRange });
  }
  const retries = step.retry_count;
  if (!Number.isInteger(retries) || retries < STEP_LIMITS.minRetries || retries > STEP_LIMITS.maxRetries) {
    issues.push({ field: 'retry_count', message: messages.stepRetryRange });
  }
  return issues;
}

/** docs/product/packages.md#builder: reordering and deleting keep the list numbered from 1 (the index is the number). */
export function moveStep(steps: StepDraft[], from: number, to: number): StepDraft[] {
  if (from === to || from < 0 || to < 0 || from >= steps.length || to >= steps.length) {
    return steps;
  }
  const next = [...steps];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved!);
  return next;
}

/**
 * The steps that keep a package on Windows ("2. Set ring"): a Linux package holds none of them
 * (docs/architecture.md "Package targets").
 */
export const windowsOnlySteps = (steps: StepDraft[]): string[] =>
  steps.flatMap((s, i) => (stepRunsOn(s.step_type, 'linux') ? [] : [`${i + 1}. ${s.step_name}`]));
