import { useState } from 'react';
import { ArrowUpCircle, Download, Eraser, ServerCog, ShieldAlert, Trash2 } from 'lucide-react';
import type { DeviceListItem, DeviceStatusFilter } from '@outpost/contract/devices';
import { DEVICE_STATUS_FILTERS, osTypeLabel } from '@outpost/contract/devices';
import { deviceMessages } from '@outpost/contract/messages';
import { Alert } from '../../../components/ui/alert';
import { StatusBadge } from '../../../components/ui/badge';
import { BulkActionBar, DeleteSelectedButton } from '../../../components/ui/bulk-action-bar';
import { Button } from '../../../components/ui/button';
import { Card, PageHeader } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { Checkbox } from '../../../components/ui/form';
import { FilterSelect, ListFooter, ListToolbar, osTypeOptions } from '../../../components/ui/list-toolbar';
import { QueryState } from '../../../components/ui/states';
import { TBody, THead, Table, Td, Th, Tr } from '../../../components/ui/table';
import { errorMessage } from '../../../lib/api-client';
import { useDeleteFlow } from '../../../lib/use-delete-flow';
import { useUser } from '../../../lib/auth';
import { formatDate, formatDateTime, relativeTime } from '../../../lib/format';
import { useDevices } from '../../../lib/api/devices';
import type { DeviceFilters } from '../../../lib/api/devices';
import { useListState } from '../../../lib/use-list-state';
import { useDeleteAgents } from '../api/delete-agents';
import { CleanupDialog } from '../components/cleanup-dialog';
import { InstallAgentDialog } from '../components/install-agent-dialog';
import { useAgentReleases } from '../api/agent-releases';
import { OutdatedBadge, UpdateAgentsDialog, useUpdateFlow } from '../components/update-agents';

// spec: operations §2.7 Agents, §2.9 filter bar, §4 agent cleanup, §5, §8.
export default function AgentsPage() {
  const user = useUser();
  const isAdmin = user.role === 'tenant_admin';
  const list = useListState<{ status: DeviceStatusFilter; osType: string }>({
    filters: { status: '', osType: '' },
  });
  const [isCleanupOpen, setIsCleanupOpen] = useState(false);
  const [isInstallOpen, setIsInstallOpen] = useState(false);

  // spec: operations §7 Agents — the agents list is the devices list, administered.
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
  // Published agent executables: an older agent gets an Outdated badge (issue 15).
  const releases = useAgentReleases();
  const updating = useUpdateFlow(list.clearSelection);
  const rows = query.data?.data;
  const selectedRows = (rows ?? []).filter((d) => list.isSelected(d.id));
  const isAllSelected = Boolean(rows?.length) && selectedRows.length === rows?.length;

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
        <QueryState
          isPending={query.isPending}
          failures={query}
          error={query.isError ? errorMessage(query.error, deviceMessages.agentsLoad) : null}
          errorTitle={deviceMessages.agentsLoad}
          onRetry={() => void query.refetch()}
          isEmpty={rows?.length === 0}
          loadingLabel="Loading agents"
          empty={{
            icon: <ServerCog className="size-6" />,
            title: 'No agents found',
            message: list.hasActiveFilters
              ? 'Try adjusting your filters.'
              : 'Install the agent on a device to see it here.',
          }}
        >
          <Table cards>
            <THead>
              <tr>
                {isAdmin && (
                  <Th className="w-10">
                    <Checkbox
                      aria-label="Select all agents"
                      checked={isAllSelected}
                      onChange={() => list.toggleAll((rows ?? []).map((d) => d.id))}
                    />
                  </Th>
                )}
                <Th sticky>Hostname</Th>
                <Th>Agent Version</Th>
                <Th>OS</Th>
                <Th>Status</Th>
                <Th>Site</Th>
                <Th>Last Check-in</Th>
                <Th>First Seen</Th>
                {isAdmin && (
                  <Th className="text-right">
                    <span className="sr-only">Actions</span>
                  </Th>
                )}
              </tr>
            </THead>
            <TBody>
              {rows?.map((d) => (
                <Tr key={d.id} isSelected={list.isSelected(d.id)}>
                  {isAdmin && (
                    <Td>
                      <Checkbox
                        aria-label={`Select ${d.hostname ?? d.id}`}
                        checked={list.isSelected(d.id)}
                        onChange={() => list.toggle(d.id)}
                      />
                    </Td>
                  )}
                  <Td sticky className="whitespace-nowrap">
                    <div className="font-medium text-slate-900 dark:text-white">
                      {d.hostname ?? `Device ${d.id}`}
                    </div>
                    <div className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">
                      <abbr title="Serial number" className="no-underline">
                        S/N
                      </abbr>{' '}
                      <span className="font-mono">{d.serial_number || 'Unknown'}</span>
                    </div>
                  </Td>
                  <Td className="whitespace-nowrap tabular-nums" data-label="Agent Version">
                    {d.agent_version || '1.0.0'}
                    <OutdatedBadge device={d} releases={releases.data} />
                  </Td>
                  <Td className="whitespace-nowrap" data-label="OS">
                    {osTypeLabel(d.os_type)}
                  </Td>
                  <Td>
                    <StatusBadge status={d.status} />
                  </Td>
                  <Td className="whitespace-nowrap" data-label="Site">
                    {d.site_name || 'Unassigned'}
                  </Td>
                  <Td
                    className="whitespace-nowrap"
                    title={formatDateTime(d.last_seen)}
                    data-label="Last Check-in"
                  >
                    {relativeTime(d.last_seen)}
                  </Td>
                  <Td className="whitespace-nowrap" data-label="First Seen">
                    {formatDate(d.created_at || d.updated_at)}
                  </Td>
                  {isAdmin && (
                    <Td className="text-right" data-label="Actions">
                      <Button
                        size="sm"
                        variant="ghost"
                        aria-label={`Delete ${d.hostname ?? d.id}`}
                        className="text-red-600 hover:text-red-700 dark:text-red-400"
                        icon={<Trash2 className="size-3.5" />}
                        onClick={() => deletion.askOne(d)}
                      />
                    </Td>
                  )}
                </Tr>
              ))}
            </TBody>
          </Table>
        </QueryState>
        {rows && rows.length > 0 && (
          <ListFooter
            shown={rows.length}
            total={query.data?.pagination.total ?? 0}
            page={list.page}
            totalPages={query.data?.pagination.totalPages ?? 1}
            pageSize={list.pageSize}
            onPageChange={list.setPage}
            onPageSizeChange={list.setPageSize}
          />
        )}
      </Card>
      <ConfirmDialog
        isOpen={deletion.toDelete !== null}
        title={
          deletion.toDelete && deletion.toDelete.length > 1
            ? `Delete ${deletion.toDelete.length} agents?`
            : 'Delete agent?'
        }
        message={
          deletion.toDelete && (
            <p>
              {deletion.toDelete.length > 1
                ? `${deletion.toDelete.length} agents and their inventory and history will be removed.`
                : `${deletion.toDelete[0]!.hostname ?? 'This agent'} and its inventory and history will be removed.`}{' '}
              A connected agent is disconnected; it can enrol again with a new token.
            </p>
          )
        }
        confirmLabel="Delete"
        isBusy={deletion.isBusy}
        onConfirm={deletion.confirm}
        onCancel={deletion.cancel}
      />
      <UpdateAgentsDialog flow={updating} />
      <CleanupDialog isOpen={isCleanupOpen} onClose={() => setIsCleanupOpen(false)} />
      <InstallAgentDialog isOpen={isInstallOpen} onClose={() => setIsInstallOpen(false)} />
    </>
  );
}
