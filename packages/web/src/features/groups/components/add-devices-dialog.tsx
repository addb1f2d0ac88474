import { useState } from 'react';
import { Monitor } from 'lucide-react';
import { StatusBadge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Checkbox } from '../../../components/ui/form';
import { SearchInput } from '../../../components/ui/list-toolbar';
import { Spinner } from '../../../components/ui/spinner';
import { Alert } from '../../../components/ui/alert';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useDevices } from '../../../lib/api/devices';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useChangeMembers } from '../api/groups';
import type { GroupDetail } from '../api/groups';

const PAGE = 50;

/** Choose devices to add to a static group (its owner site's devices only, for a site's group). */
export function AddDevicesDialog({ group, onClose }: { group: GroupDetail; onClose: () => void }) {
  const toast = useToast();
  const [search, setSearch] = useState('');
  const term = useDebouncedValue(search.trim(), 300);
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const devices = useDevices({
    page: 1,
    limit: PAGE,
    search: term || undefined,
    ...(group.site_id !== null && { site_id: group.site_id }),
  });
  const change = useChangeMembers(group.id);
  const rows = devices.data?.data ?? [];

  const toggle = (id: number) =>
    setChosen((s) => {
      const next = new Set(s);
      if (next.has(id)) {
        next.delete(id);
      } else {
        next.add(id);
      }
      return next;
    });

  const submit = () =>
    change.mutate(
      { action: 'add', deviceIds: [...chosen] },
      {
        onSuccess: (res) => {
          toast.show({
            type: 'success',
            title: 'Devices added',
            message: `${res.changed} device${res.changed === 1 ? '' : 's'} added to ${group.name}`,
          });
          onClose();
        },
        onError: (err) => setError(errorMessage(err, 'Failed to add the devices')),
      },
    );

  return (
    <Dialog
      isOpen
      onClose={onClose}
      size="lg"
      title="Add devices"
      description={
        group.site_name
          ? `Devices of ${group.site_name} can join ${group.name}.`
          : `Choose devices to add to ${group.name}.`
      }
      isDismissDisabled={change.isPending}
      footer={
        <>
          <p className="mr-auto text-sm text-slate-600 dark:text-slate-300">{chosen.size} selected</p>
          <Button onClick={onClose} disabled={change.isPending}>
            Cancel
          </Button>
          <Button
            variant="primary"
            onClick={submit}
            isLoading={change.isPending}
            disabled={chosen.size === 0}
          >
            Add {chosen.size > 0 ? chosen.size : ''} device{chosen.size === 1 ? '' : 's'}
          </Button>
        </>
      }
    >
      <div className="space-y-3">
        {error && <Alert>{error}</Alert>}
        <SearchInput value={search} onChange={setSearch} placeholder="Search hostname, IP or serial..." />
        <div className="h-72 overflow-y-auto rounded-lg ring-1 ring-slate-200 ring-inset dark:ring-slate-800">
          {devices.isPending ? (
            <div className="flex h-full items-center justify-center">
              <Spinner label="Loading devices" />
            </div>
          ) : rows.length === 0 ? (
            <p className="flex h-full items-center justify-center text-sm text-slate-500 dark:text-slate-400">
              No devices found
            </p>
          ) : (
            <ul className="divide-y divide-slate-100 dark:divide-slate-800">
              {rows.map((d) => (
                <li key={d.id} className="flex items-center gap-3 px-3 py-2">
                  <Checkbox
                    checked={chosen.has(d.id)}
                    onChange={() => toggle(d.id)}
                    aria-label={`Choose ${d.hostname ?? `device ${d.id}`}`}
                  />
                  <Monitor className="size-4 shrink-0 text-slate-400" aria-hidden />
                  <span className="min-w-0 flex-1 truncate text-sm text-slate-800 dark:text-slate-100">
                    {d.hostname ?? `Device ${d.id}`}
                    {d.ip_address && (
                      <span className="ml-2 text-xs text-slate-500 dark:text-slate-400">{d.ip_address}</span>
                    )}
                  </span>
                  <StatusBadge status={d.status} />
                </li>
              ))}
            </ul>
          )}
        </div>
        <p className="text-xs text-slate-500 dark:text-slate-400">
          Up to {PAGE} devices are listed; search to find others.
        </p>
      </div>
    </Dialog>
  );
}
