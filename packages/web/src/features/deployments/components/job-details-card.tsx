import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { DeploymentJobDetail } from '@outpost/contract/deployments';
import { agentUpdateStepName } from '@outpost/contract/deployments';
import { STEP_CATALOG } from '@outpost/contract/step-catalog';
import { SCRIPT_STEP_TYPE } from '@outpost/contract/script-runs';
import { Badge } from '../../../components/ui/badge';
import { Card, CardHeader } from '../../../components/ui/card';
import { formatDateTime } from '../../../lib/format';

/** What the job is: its package, who made it, when it was scheduled, started and finished. */
export function JobDetailsCard({ job }: { job: DeploymentJobDetail }) {
  return (
    <Card className="h-full">
      <CardHeader title="Job Details" />
      <dl className="grid grid-cols-1 gap-x-8 px-5 py-2 text-sm sm:grid-cols-2">
        {job.kind === 'agent_update' ? (
          <Detail label="Kind">Agent update to {job.agent_versions?.join(', ')}</Detail>
        ) : (
          <Detail label="Package">{job.package_name}</Detail>
        )}
        {job.group_name && (
          <Detail label="Device group">
            <span title="The group's members when the deployment was created">{job.group_name}</span>
          </Detail>
        )}
        <Detail label="Created by">
          {job.policy_id ? (
            <Link
              to={`/policies/${job.policy_id}`}
              className="font-medium text-indigo-600 hover:underline dark:text-indigo-400"
              title="The automation policy that created this deployment"
            >
              {job.created_by_name ?? 'Policy'}
            </Link>
          ) : (
            (job.created_by_name ?? 'Unknown')
          )}
        </Detail>
        <Detail label="Created">{formatDateTime(job.created_at)}</Detail>
        <Detail label="Scheduled">
          {job.scheduled_at ? formatDateTime(job.scheduled_at) : 'Immediately'}
        </Detail>
        <Detail label="Started">{formatDateTime(job.started_at)}</Detail>
        <Detail label="Completed">{formatDateTime(job.completed_at)}</Detail>
        <Detail label="Description">
          {job.description ? (
            <span className="whitespace-pre-wrap">{job.description}</span>
          ) : (
            <span className="text-slate-500 dark:text-slate-400">None</span>
          )}
        </Detail>
      </dl>
    </Card>
  );
}

/**
 * The package's steps as they were when the job was created; nothing without steps. An agent
 * update has one pseudo step (docs/product/rollouts.md#agent-updates-in-waves).
 */
export function JobStepsCard({ job }: { job: DeploymentJobDetail }) {
  if (job.kind === 'agent_update') {
    return <AgentUpdateStepCard versions={job.agent_versions ?? []} />;
  }
  if (job.steps.length === 0) {
    return null;
  }
  return (
    <Card className="h-full">
      <CardHeader title="Steps" description="As the package was when the job was created" />
      <ol className="divide-y divide-slate-100 px-5 text-sm dark:divide-slate-800">
        {job.steps.map((s) => (
          <li key={s.step_order} className="flex items-center gap-3 py-2.5">
            <span className="flex size-6 shrink-0 items-center justify-center rounded-full bg-slate-100 text-xs font-semibold text-slate-600 dark:bg-slate-800 dark:text-slate-300">
              {s.step_order}
            </span>
            <span className="min-w-0 flex-1 truncate text-slate-800 dark:text-slate-100">{s.step_name}</span>
            <Badge tone="indigo">
              {s.step_type === SCRIPT_STEP_TYPE ? 'Script' : STEP_CATALOG[s.step_type].label}
            </Badge>
          </li>
        ))}
      </ol>
    </Card>
  );
}

function AgentUpdateStepCard({ versions }: { versions: string[] }) {
  return (
    <Card className="h-full">
      <CardHeader title="Steps" description="Each agent downloads, checks and restarts as the new version" />
      <ol className="px-5 text-sm">
        <li className="flex items-center gap-3 py-2.5">
          <span className="flex size-6 shrink-0 items-center justify-center rounded-full bg-slate-100 text-xs font-semibold text-slate-600 dark:bg-slate-800 dark:text-slate-300">
            1
          </span>
          <span className="min-w-0 flex-1 truncate text-slate-800 dark:text-slate-100">
            {agentUpdateStepName(versions)}
          </span>
          <Badge tone="indigo">Agent update</Badge>
        </li>
      </ol>
    </Card>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex gap-4 border-b border-slate-100 py-2.5 dark:border-slate-800">
      <dt className="w-24 shrink-0 text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="min-w-0 flex-1 break-words text-slate-800 dark:text-slate-100">{children}</dd>
    </div>
  );
}
