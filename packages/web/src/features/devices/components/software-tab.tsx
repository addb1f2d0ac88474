import { Package } from 'lucide-react';
import type { Device } from '@outpost/contract/devices';
import { deviceMessages } from '@outpost/contract/messages';
import { Card } from '../../../components/ui/card';
import { SearchInput } from '../../../components/ui/list-toolbar';
import { QueryState } from '../../../components/ui/states';
import { TBody, THead, Table, Td, Th, Tr } from '../../../components/ui/table';
import { errorMessage } from '../../../lib/api-client';
import { useDeviceSoftware } from '../api/get-device-software';
import { useListState } from '../../../lib/use-list-state';
import { Pager } from '../../../components/ui/pager';
import { RefreshInventoryButton } from './refresh-button';

export function SoftwareTab({ device }: { device: Device }) {
  const list = useListState({ filters: {} });
  const query = useDeviceSoftware(device.device_guid, {
    page: list.page,
    search: list.searchTerm || undefined,
  });
  const data = query.data;
  return (
    <Card>
      <div className="flex flex-col gap-3 border-b border-slate-200 px-4 py-3 sm:flex-row sm:items-center dark:border-slate-800">
        <SearchInput
          value={list.search}
          onChange={list.setSearch}
          placeholder="Search name or publisher..."
          label="Search software"
        />
        <div className="flex flex-1 items-center justify-end gap-3">
          {data && (
            <span className="text-sm text-slate-500 dark:text-slate-400">
              {data.total} {data.total === 1 ? 'title' : 'titles'}
            </span>
          )}
          <RefreshInventoryButton
            idOrGuid={device.device_guid}
            kind="software"
            onReload={() => void query.refetch()}
            isDisabled={device.status === 'offline'}
          />
        </div>
      </div>
      <QueryState
        isPending={query.isPending}
        failures={query}
        error={query.isError ? errorMessage(query.error, deviceMessages.softwareLoad) : null}
        errorTitle={deviceMessages.softwareLoad}
        onRetry={() => void query.refetch()}
        isEmpty={!data || data.data.length === 0}
        loadingLabel="Loading software"
        empty={{
          icon: <Package className="size-6" />,
          title: 'No software found',
          message: list.searchTerm
            ? 'No installed software matches your search.'
            : 'The agent has not reported installed software yet.',
        }}
      >
        <Table>
          <THead>
            <tr>
              <Th sticky>Name</Th>
              <Th>Publisher</Th>
              <Th>Version</Th>
              <Th>Installed</Th>
            </tr>
          </THead>
          <TBody>
            {(data?.data ?? []).map((s) => (
              <Tr key={`${s.name}-${s.version ?? ''}`}>
                <Td sticky className="font-medium text-slate-900 dark:text-white">
                  {s.displayName || s.name}
                </Td>
                <Td>{s.publisher ?? '—'}</Td>
                <Td className="tabular-nums">{s.version ?? '—'}</Td>
                <Td className="whitespace-nowrap tabular-nums">{s.installDate ?? '—'}</Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      </QueryState>
      {data && data.totalPages > 1 && (
        <div className="flex flex-col items-center justify-between gap-3 border-t border-slate-200 px-4 py-3 sm:flex-row dark:border-slate-800">
          <span className="text-sm text-slate-500 dark:text-slate-400">
            Page {data.page} of {data.totalPages}
          </span>
          <Pager
            variant="compact"
            label="Software pages"
            page={list.page}
            totalPages={data.totalPages}
            onPageChange={list.setPage}
          />
        </div>
      )}
    </Card>
  );
}
