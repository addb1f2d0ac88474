import { AppWindow } from 'lucide-react';
import type { SoftwareSort } from '@outpost/contract/software';
import { Card, PageHeader } from '../../../components/ui/card';
import { DataList } from '../../../components/ui/data-list';
import { ExportButton } from '../../../components/ui/export-button';
import { FilterSelect, ListToolbar } from '../../../components/ui/list-toolbar';
import { useListState } from '../../../lib/use-list-state';
import { useSoftware } from '../api/software';
import { titleColumns } from '../components/software-columns';

const SORTS: { value: SoftwareSort; label: string }[] = [
  { value: 'name', label: 'Sort by name' },
  { value: 'devices', label: 'Sort by devices' },
];

// docs/product/device-sets.md#fleet-software: every title installed across the fleet (the
// caller's sites), its versions and how many devices hold each; a title opens its devices.
export default function SoftwarePage() {
  const list = useListState<{ sort: SoftwareSort }>({ filters: { sort: 'name' } });
  const filters = {
    page: list.page,
    limit: list.pageSize,
    search: list.searchTerm || undefined,
    sort: list.filters.sort,
  };
  const query = useSoftware(filters);
  const rows = {
    ...query,
    data: query.data && { ...query.data, data: query.data.data.map((t, i) => ({ ...t, id: i })) },
  };

  return (
    <>
      <PageHeader
        title="Software"
        description="Every title installed across your fleet, with its versions and how many devices run each."
        actions={
          <ExportButton
            path="/customer/software"
            query={{ search: filters.search }}
            filename="software.csv"
          />
        }
      />
      <Card>
        <ListToolbar
          search={list.search}
          onSearchChange={list.setSearch}
          searchPlaceholder="Search title or publisher..."
          hasActiveFilters={Boolean(list.searchTerm)}
          onClear={list.clearFilters}
          filters={
            <FilterSelect
              label="Sort"
              value={list.filters.sort}
              onChange={(v) => list.setFilter('sort', v)}
              options={SORTS}
              className="sm:w-44"
            />
          }
        />
        <DataList
          query={rows}
          paging={list}
          footer="list"
          errorFallback="Could not load the fleet's software."
          errorTitle="Error loading software"
          loadingLabel="Loading software"
          empty={{
            icon: <AppWindow className="size-6" />,
            title: 'No software found',
            message: list.searchTerm
              ? 'Try another search.'
              : 'Titles appear here as your devices report their software inventory.',
          }}
          cards
          columns={titleColumns()}
        />
      </Card>
    </>
  );
}
