import { Link, useSearchParams } from 'react-router';
import { ArrowLeft, Monitor } from 'lucide-react';
import { Card, PageHeader } from '../../../components/ui/card';
import { DataList } from '../../../components/ui/data-list';
import { ExportButton } from '../../../components/ui/export-button';
import { FilterSelect } from '../../../components/ui/list-toolbar';
import { useListState } from '../../../lib/use-list-state';
import { useSoftware, useSoftwareDevices } from '../api/software';
import { titleDeviceColumns, titleHref, versionLabel } from '../components/software-columns';

const ALL = '*';

// docs/product/device-sets.md#fleet-software: the devices holding a title, or one version of it
// (?name=…&version=…), a page at a time; each opens the device.
export default function SoftwareTitlePage() {
  const [params, setParams] = useSearchParams();
  const name = params.get('name') ?? '';
  const version = params.get('version') ?? undefined;
  const list = useListState<Record<string, never>>({ filters: {} });
  const devices = useSoftwareDevices({ page: list.page, limit: list.pageSize, name, version });
  // the title's row of the list: its publisher and versions (a search narrows it to the title)
  const titles = useSoftware({ page: 1, limit: 100, search: name, sort: 'name' });
  const title = titles.data?.data.find((t) => t.name === name);
  const rows = {
    ...devices,
    data: devices.data && { ...devices.data, data: devices.data.data.map((d, i) => ({ ...d, id: i })) },
  };
  const total = title?.device_count;

  return (
    <>
      <Link
        to="/software"
        className="mb-3 inline-flex items-center gap-1.5 text-sm text-slate-500 hover:text-indigo-600 dark:text-slate-400 dark:hover:text-indigo-400"
      >
        <ArrowLeft className="size-4" aria-hidden />
        Software
      </Link>
      <PageHeader
        title={name || 'Software title'}
        description={
          title
            ? `${title.publisher ?? 'Unknown publisher'} · ${total?.toLocaleString()} ${total === 1 ? 'device' : 'devices'} · ${title.versions.length} ${title.versions.length === 1 ? 'version' : 'versions'}`
            : undefined
        }
        actions={
          name && (
            <ExportButton
              path="/customer/software/devices"
              query={{ name, version }}
              filename="software-devices.csv"
            />
          )
        }
      />
      <Card>
        <div className="flex flex-col gap-3 border-b border-slate-200 px-4 py-3 sm:flex-row sm:items-center dark:border-slate-800">
          <FilterSelect
            label="Version"
            value={version ?? ALL}
            onChange={(v) => {
              setParams(
                new URL(titleHref(name, v === ALL ? undefined : v), window.location.origin).searchParams,
              );
              list.setPage(1);
            }}
            options={[
              { value: ALL, label: 'All versions' },
              ...(title?.versions ?? (version !== undefined ? [{ version, device_count: 0 }] : [])).map(
                (v) => ({
                  value: v.version,
                  label: v.device_count
                    ? `${versionLabel(v.version)} (${v.device_count})`
                    : versionLabel(v.version),
                }),
              ),
            ]}
            className="sm:w-56"
          />
        </div>
        <DataList
          query={rows}
          paging={list}
          footer="list"
          errorFallback="Could not load the devices of this title."
          errorTitle="Error loading devices"
          loadingLabel="Loading devices"
          empty={{
            icon: <Monitor className="size-6" />,
            title: 'No devices found',
            message: 'No device you can see has this title installed.',
          }}
          cards
          columns={titleDeviceColumns()}
        />
      </Card>
    </>
  );
}
