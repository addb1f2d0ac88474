import { useState } from 'react';
import type { DeviceListItem } from '@outpost/contract/devices';
import type { AgentRelease, UpdateAgentsResponse } from '@outpost/contract/agent-releases';
import { isAgentOutdated, targetVersionFor } from '@outpost/contract/agent-releases';
import { adminMessages } from '@outpost/contract/messages';
import { Badge } from '../../../components/ui/badge';
import { ConfirmDialog } from '../../../components/ui/dialog';
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
  const versions = [...new Set(res.updates.map((u) => u.to))].join(', ');
  const title =
    res.queued === 0
      ? 'No agents updated'
      : `${res.queued} agent${res.queued === 1 ? '' : 's'} updating to ${versions}`;
  const reasons = new Map<string, number>();
  for (const s of res.skipped) {
    reasons.set(s.reason, (reasons.get(s.reason) ?? 0) + 1);
  }
  const skipped = [...reasons].map(([reason, n]) => `${n} skipped: ${reason}`).join('. ');
  const message =
    res.queued > 0
      ? `Each downloads the new version, checks it and restarts; one that cannot start rolls back.${skipped ? ` ${skipped}.` : ''}`
      : `${skipped}.`;
  return { title, message };
}

export function useUpdateFlow(onUpdated: () => void) {
  const update = useUpdateAgents();
  const toast = useToast();
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

  const confirm = () => {
    if (!toUpdate) {
      return;
    }
    update.mutate(
      toUpdate.map((d) => d.id),
      {
        onSuccess: (res) => {
          toast.show({ type: res.queued > 0 ? 'success' : 'warning', ...updateSummary(res) });
          if (res.queued > 0) {
            onUpdated();
          }
          setToUpdate(null);
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

export function UpdateAgentsDialog({ flow }: { flow: ReturnType<typeof useUpdateFlow> }) {
  const rows = flow.toUpdate;
  return (
    <ConfirmDialog
      isOpen={rows !== null}
      title={rows && rows.length > 1 ? `Update ${rows.length} agents?` : 'Update agent?'}
      message={
        rows && (
          <p>
            {rows.length > 1 ? `${rows.length} agents` : (rows[0]!.hostname ?? 'The agent')} will download the
            agent published for their OS, check its SHA-256 and restart as the new version; an agent whose new
            version cannot start or connect goes back to the old one. Agents that are offline or already up to
            date are skipped.
          </p>
        )
      }
      confirmLabel="Update"
      tone="primary"
      isBusy={flow.isBusy}
      onConfirm={flow.confirm}
      onCancel={flow.cancel}
    />
  );
}
