import { useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { deploymentMessages as messages } from '@outpost/contract/messages';
import { deployProblems } from '../lib/deploy-form';
import type { DeployField, DeployFormValues } from '../lib/deploy-form';

/**
 * The deploy dialog's rules as they stand (docs/product/deployments.md#deploy-dialog-rules, in order) and which of them to show: a
 * rule's message shows next to its field once the user has worked on that field or tried to send;
 * a past schedule and offline devices are said at once.
 */
export function useDeployRules({
  form,
  values,
  packageCount,
  devices,
  group,
}: {
  form: UseFormReturn<DeployFormValues>;
  values: DeployFormValues;
  packageCount: number;
  devices: readonly { status: string }[];
  /** set when the dialog deploys to a group */
  group?: { groupId: number | null };
}) {
  const [showRules, setShowRules] = useState(false);
  const [touched, setTouched] = useState<ReadonlySet<DeployField>>(new Set());
  const touch = (field: DeployField) => setTouched((t) => new Set(t).add(field));

  const problems = deployProblems({
    packageCount,
    devices,
    group,
    jobName: values.jobName ?? '',
    schedule: values,
  });
  const jobNameState = form.getFieldState('jobName', form.formState);
  const isJobNameTouched = jobNameState.isDirty || jobNameState.isTouched;
  const shownError = (field: DeployField) => {
    const problem = problems.find((p) => p.field === field);
    const isShown =
      showRules ||
      touched.has(field) ||
      field === 'schedule' ||
      problem?.message === messages.devicesOffline ||
      (field === 'jobName' && isJobNameTouched);
    return problem && isShown ? problem.message : undefined;
  };

  return { problems, shownError, touch, showRules: () => setShowRules(true) };
}
