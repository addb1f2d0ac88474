import { useState } from 'react';
import type { DeviceListItem } from '@outpost/contract/devices';
import type { AgentRelease, UpdateAgentsResponse } from '@outpost/contract/agent-releases';
import { isAgentOutdated, targetVersionFor } from '@outpost/contract/agent-releases';
import { adminMessages } from '@outpost/contract/messages';
import { Badge } from '../../../components/ui/badge';
import { useNavigate } from 'react-router';
import type { RolloutPlan } from '@outpost/contract/rollouts';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useUpdateAgents } from '../api/agent-releases';

// Agent upgrades on the Agents page: an "Outdated" badge beside an agent version older
// than the executable published for its OS, and the administrators' Update Selected action.

export function OutdatedBadge({
  device,
  releases,
}: {
  device: Pick<DeviceListItem, 'agent_version' | 'os_type'>;
  releases: AgentRelease[] | undefined;
}) {
  if (!releases || !isAgentOutdated(device.agent_version, device.os_type, releases)) {
    return null;
  }
  const target = targetVersionFor(device.os_type, releases);
  return (
    <span title={`Version ${target} is published for this OS`} className="ml-2">
      <Badge tone="yellow">Outdated</Badge>
    </span>
  );
}

/** The toast after an update request: how many were asked, and why the others were not. */
export function updateSummary(res: UpdateAgentsResponse): { title: string; message: string } {
  const isInWaves = res.job_id !== undefined;
  const versions = [...new Set((res.planned ?? res.updates).map((u) => u.to))].join(', ');
  const title =
    res.queued === 0
      ? 'No agents updated'
      : `${res.queued} agent${res.queued === 1 ? '' : 's'} updating to ${versions}${isInWaves ? ' in waves' : ''}`;
  const reasons = new Map<string, number>();
  for (const s of res.skipped) {
    reasons.set(s.reason, (reasons.get(s.reason) ?? 0) + 1);
  }
  const skipped = [...reasons].map(([reason, n]) => `${n} skipped: ${reason}`).join('. ');
  const what = isInWaves
    ? 'The first wave starts now; each next wave waits for its gate.'
    : 'Each downloads the new version, checks it and restarts; one that cannot start rolls back.';
  const message = res.queued > 0 ? `${what}${skipped ? ` ${skipped}.` : ''}` : `${skipped}.`;
  return { title, message };
}

export function useUpdateFlow(onUpdated: () => void) {
  const update = useUpdateAgents();
  const toast = useToast();
  const navigate = useNavigate();
  const [toUpdate, setToUpdate] = useState<DeviceListItem[] | null>(null);

  const ask = (selected: DeviceListItem[]) => {
    if (selected.length === 0) {
      toast.show({
        type: 'warning',
        title: adminMessages.noSelection,
        message: 'Select the agents to update first.',
      });
      return;
    }
    setToUpdate(selected);
  };

  /** sends the update; with a plan, in waves, and opens the job's page (its Rollout card) */
  const confirm = (rollout?: RolloutPlan) => {
    if (!toUpdate) {
      return;
    }
    update.mutate(
      { device_ids: toUpdate.map((d) => d.id), ...(rollout && { rollout }) },
      {
        onSuccess: (res) => {
          toast.show({ type: res.queued > 0 ? 'success' : 'warning', ...updateSummary(res) });
          if (res.queued > 0) {
            onUpdated();
          }
          setToUpdate(null);
          if (res.job_id !== undefined) {
            void navigate(`/deployments/${res.job_id}`);
          }
        },
        onError: (err) => {
          toast.show({
            type: 'error',
            title: 'Update Failed',
            message: errorMessage(err, 'Please try again.'),
          });
          setToUpdate(null);
        },
      },
    );
  };

  return { toUpdate, ask, confirm, cancel: () => setToUpdate(null), isBusy: update.isPending };
}
