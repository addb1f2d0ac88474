import type { WebhookEvent } from '@outpost/contract/webhooks';
import type { Executor } from '../../lib/db';
import { emitEvent } from '../../lib/events';

// A deployment's events (docs/product/webhooks.md#events), emitted in the transaction that changes
// its status. A job reaches each status once, so `{job}:{status}` names the occurrence.

export type JobFacts = { id: number; tenantId: number; name: string; status: string; kind?: string | null };

const EVENT_OF_STATUS: Record<string, WebhookEvent | undefined> = {
  pending: 'deployment.created',
  running: 'deployment.started',
  completed: 'deployment.completed',
  failed: 'deployment.failed',
  cancelled: 'deployment.cancelled',
};

export async function emitJobEvent(tx: Executor, job: JobFacts, event?: WebhookEvent): Promise<void> {
  const name = event ?? EVENT_OF_STATUS[job.status];
  if (!name) {
    return;
  }
  const data = { id: job.id, name: job.name, status: job.status, kind: job.kind ?? 'package' };
  await emitEvent(tx, job.tenantId, name, data, `deployment:${job.id}:${name}`);
}
