import type { JobStatus } from '@outpost/contract/deployments';
import type { RolloutState } from '@outpost/contract/rollouts';

// The last status and the name the portal knows of each deployment job (from fetched lists and
// details, jobs created here, and live updates), so a deployment_update is read as a change:
// the toasts of docs/product/deployments.md#job-statuses are for a job's status changing, and an update that only moves
// the counters (repeating the status) raises nothing. A status never moves back (pending →
// running → completed, failed or cancelled): a list fetched while an update was in flight and
// answered after it cannot reset a job to an earlier status.

const rank: Record<JobStatus, number> = { pending: 0, running: 1, completed: 2, failed: 2, cancelled: 2 };
const statuses = new Map<number, JobStatus>();
const names = new Map<number, string>();
// a rollout's state as last fetched: a live update repeating a halt the portal already knew of
// (a device of a halted rollout changing) is not a new halt (docs/product/rollouts.md#gates)
const rollouts = new Map<number, RolloutState>();

/** Remember jobs as fetched from the server or created here. */
export function noteJobs(
  jobs: readonly { id: number; name: string; status: JobStatus; rollout_state?: RolloutState | null }[],
) {
  for (const job of jobs) {
    names.set(job.id, job.name);
    if (job.rollout_state) {
      rollouts.set(job.id, job.rollout_state);
    }
    const known = statuses.get(job.id);
    if (known === undefined || rank[job.status] > rank[known]) {
      statuses.set(job.id, job.status);
    }
  }
}

/** Record a live status and return the one known before it (undefined when none was). */
export function swapJobStatus(id: number, status: JobStatus): JobStatus | undefined {
  const previous = statuses.get(id);
  statuses.set(id, status);
  return previous;
}

export const jobNameOf = (id: number): string | undefined => names.get(id);

/** The rollout state of the job as last fetched (undefined when none was). */
export const fetchedRolloutStateOf = (id: number): RolloutState | undefined => rollouts.get(id);

/** Remember a job's name from a live update (it carries the name). */
export function noteJobName(id: number, name: string) {
  names.set(id, name);
}
