import { useState } from 'react';
import { ArrowUpCircle, Download, Eraser, ServerCog, ShieldAlert } from 'lucide-react';
import type { DeviceListItem, DeviceStatusFilter } from '@outpost/contract/devices';
import { DEVICE_STATUS_FILTERS } from '@outpost/contract/devices';
import { deviceMessages } from '@outpost/contract/messages';
import { Alert } from '../../../components/ui/alert';
import { BulkActionBar, DeleteSelectedButton } from '../../../components/ui/bulk-action-bar';
import { Button } from '../../../components/ui/button';
import { Card, PageHeader } from '../../../components/ui/card';
import { DataList } from '../../../components/ui/data-list';
import { DeleteRowsDialog } from '../../../components/ui/delete-rows-dialog';
import { FilterSelect, ListToolbar, osTypeOptions } from '../../../components/ui/list-toolbar';
import { useDeleteFlow } from '../../../lib/use-delete-flow';
import { useUser } from '../../../lib/auth';
import { useDevices } from '../../../lib/api/devices';
import type { DeviceFilters } from '../../../lib/api/devices';
import { useListState } from '../../../lib/use-list-state';
import { useDeleteAgents } from '../api/delete-agents';
import { useAgentReleases } from '../api/agent-releases';
import { agentColumns } from '../components/agent-columns';
import { CleanupDialog } from '../components/cleanup-dialog';
import { InstallAgentDialog } from '../components/install-agent-dialog';
import { useUpdateFlow } from '../components/update-agents';
import { UpdateAgentsDialog } from '../components/update-agents-dialog';

// docs/product/administration.md#agents Agents, #admin-lists filter bar, #agent-cleanup agent cleanup.
export default function AgentsPage() {
  const user = useUser();
  const isAdmin = user.role === 'tenant_admin';
  const list = useListState<{ status: DeviceStatusFilter; osType: string }>({
    filters: { status: '', osType: '' },
  });

  // docs/product/administration.md#calls — the agents list is the devices list, administered.
  const filters: DeviceFilters = {
    page: list.page,
    limit: list.pageSize,
    search: list.searchTerm || undefined,
    status: list.filters.status || undefined,
    os_type: list.filters.osType || undefined,
  };
  const query = useDevices(filters);
  const deletion = useDeleteFlow({
    remove: useDeleteAgents(),
    plural: 'agents',
    success: (res, rows: DeviceListItem[]) => ({
      title: rows.length > 1 ? 'Agents deleted' : 'Agent deleted',
      message:
        rows.length > 1 ? `${res.deleted} agents removed` : `${rows[0]!.hostname ?? 'The agent'} was removed`,
    }),
    onDeleted: list.clearSelection,
  });
  // Published agent executables: an older agent gets an Outdated badge.
  const releases = useAgentReleases();
  const updating = useUpdateFlow(list.clearSelection);
  const rows = query.data?.data;
  const selectedRows = (rows ?? []).filter((d) => list.isSelected(d.id));

  return (
    <>
      <AgentsHeader isAdmin={isAdmin} />
      <Card>
        <ListToolbar
          search={list.search}
          onSearchChange={list.setSearch}
          searchPlaceholder="Search hostname, IP or serial..."
          hasActiveFilters={list.hasActiveFilters}
          onClear={list.clearFilters}
          filters={
            <>
              <FilterSelect
                label="Status"
                value={list.filters.status}
                onChange={(v) => list.setFilter('status', v)}
                options={[...DEVICE_STATUS_FILTERS]}
                className="sm:w-36"
              />
              <FilterSelect
                label="OS"
                value={list.filters.osType}
                onChange={(v) => list.setFilter('osType', v)}
                options={osTypeOptions(
                  (rows ?? []).map((d) => d.os_type),
                  list.filters.osType,
                )}
              />
            </>
          }
          actions={
            isAdmin && (
              <Button
                size="sm"
                icon={<ArrowUpCircle className="size-3.5" />}
                onClick={() => updating.ask(selectedRows)}
              >
                Update Selected{selectedRows.length > 0 ? ` (${selectedRows.length})` : ''}
              </Button>
            )
          }
        />
        {isAdmin && (
          <BulkActionBar count={selectedRows.length} noun={['agent', 'agents']} onClear={list.clearSelection}>
            <DeleteSelectedButton
              count={selectedRows.length}
              onClick={() => deletion.askBulk(selectedRows)}
            />
          </BulkActionBar>
        )}
        <DataList
          query={query}
          paging={list}
          footer="list"
          errorFallback={deviceMessages.agentsLoad}
          errorTitle={deviceMessages.agentsLoad}
          loadingLabel="Loading agents"
          empty={{
            icon: <ServerCog className="size-6" />,
            title: 'No agents found',
            message: list.hasActiveFilters
              ? 'Try adjusting your filters.'
              : 'Install the agent on a device to see it here.',
          }}
          cards
          columns={agentColumns({ isAdmin, releases: releases.data, onDelete: deletion.askOne })}
          selection={
            isAdmin
              ? {
                  allLabel: 'Select all agents',
                  rowLabel: (d) => `Select ${d.hostname ?? d.id}`,
                  state: list,
                }
              : undefined
          }
        />
      </Card>
      <DeleteRowsDialog
        flow={deletion}
        noun={['agent', 'agents']}
        message={(rows) => (
          <p>
            {rows.length > 1
              ? `${rows.length} agents and their inventory and history will be removed.`
              : `${rows[0]!.hostname ?? 'This agent'} and its inventory and history will be removed.`}{' '}
            A connected agent is disconnected; it can enrol again with a new token.
          </p>
        )}
      />
      <UpdateAgentsDialog flow={updating} />
    </>
  );
}

/** The title with Cleanup and Install Agent for administrators, and a note for everyone else. */
function AgentsHeader({ isAdmin }: { isAdmin: boolean }) {
  const [isCleanupOpen, setIsCleanupOpen] = useState(false);
  const [isInstallOpen, setIsInstallOpen] = useState(false);
  return (
    <>
      <PageHeader
        title="Agents"
        description="The Outpost agent on each enrolled device: versions, check-ins and registrations."
        actions={
          isAdmin && (
            <>
              <Button icon={<Eraser className="size-4" />} onClick={() => setIsCleanupOpen(true)}>
                Cleanup
              </Button>
              <Button
                variant="primary"
                icon={<Download className="size-4" />}
                onClick={() => setIsInstallOpen(true)}
              >
                Install Agent
              </Button>
            </>
          )
        }
      />
      {!isAdmin && (
        <Alert tone="info" className="mb-4">
          <span className="inline-flex items-center gap-1.5">
            <ShieldAlert className="size-4" /> Administrators only: you can see the agents, but only an
            administrator can install, delete or clean them up.
          </span>
        </Alert>
      )}
      <CleanupDialog isOpen={isCleanupOpen} onClose={() => setIsCleanupOpen(false)} />
      <InstallAgentDialog isOpen={isInstallOpen} onClose={() => setIsInstallOpen(false)} />
    </>
  );
}
