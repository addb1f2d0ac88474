import { useState } from 'react';
import type { ScriptOs } from '@outpost/contract/scripts';
import { useDeployGroups } from '../../lib/api/deploy-groups';
import { useDevices } from '../../lib/api/devices';
import { Checkbox, Field, Input, Select } from '../ui/form';
import { Spinner } from '../ui/spinner';

// Where a run goes when the screen did not choose (docs/product/scripts.md#running-a-script):
// chosen devices (searchable) or one group's members in the caller's scope.

const OS_NAMES = { windows: 'Windows', macos: 'macOS', linux: 'Linux' } as const;

export type RunTarget =
  | { kind: 'devices'; devices: { id: number; hostname: string }[] }
  | { kind: 'group'; groupId: number | null; groupName: string; members: number };

export function RunTargetPicker({
  target,
  onChange,
  os,
}: {
  target: RunTarget;
  onChange: (t: RunTarget) => void;
  /** the script's target OS: the list offers only such devices */
  os?: ScriptOs;
}) {
  const [search, setSearch] = useState('');
  const devices = useDevices({
    page: 1,
    limit: 25,
    search: search.trim() || undefined,
    ...(os && os !== 'any' && { os_type: os }),
  });
  const groups = useDeployGroups(target.kind === 'group');
  const chosen = target.kind === 'devices' ? target.devices : [];
  const toggle = (id: number, hostname: string) =>
    onChange({
      kind: 'devices',
      devices: chosen.some((d) => d.id === id)
        ? chosen.filter((d) => d.id !== id)
        : [...chosen, { id, hostname }],
    });

  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium text-slate-700 dark:text-slate-200">Run on</legend>
      <div className="flex gap-4 text-sm">
        <label className="inline-flex items-center gap-2">
          <input
            type="radio"
            name="run-target"
            className="accent-indigo-600"
            checked={target.kind === 'devices'}
            onChange={() => onChange({ kind: 'devices', devices: [] })}
          />
          Devices
        </label>
        <label className="inline-flex items-center gap-2">
          <input
            type="radio"
            name="run-target"
            className="accent-indigo-600"
            checked={target.kind === 'group'}
            onChange={() => onChange({ kind: 'group', groupId: null, groupName: '', members: 0 })}
          />
          A group
        </label>
      </div>
      {target.kind === 'devices' ? (
        <div className="space-y-2">
          <Input
            aria-label="Search devices"
            placeholder="Search devices..."
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          <div className="max-h-44 overflow-y-auto rounded-md border border-slate-200 p-2 dark:border-slate-700">
            {devices.isPending ? (
              <Spinner className="size-4 text-slate-400" />
            ) : (devices.data?.data ?? []).length === 0 ? (
              <p className="text-sm text-slate-500 dark:text-slate-400">
                {os && os !== 'any' ? `No ${OS_NAMES[os]} devices found.` : 'No devices found.'}
              </p>
            ) : (
              <ul className="space-y-1">
                {(devices.data?.data ?? []).map((d) => (
                  <li key={d.id}>
                    <Checkbox
                      label={`${d.hostname ?? d.device_guid} · ${d.os_type ?? 'unknown OS'} · ${d.status}`}
                      checked={chosen.some((c) => c.id === d.id)}
                      onChange={() => toggle(d.id, d.hostname ?? d.device_guid)}
                    />
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
      ) : (
        <Field label="Group" htmlFor="run-group">
          <Select
            id="run-group"
            value={target.groupId ?? ''}
            onChange={(e) => {
              const g = groups.data?.data.find((x) => x.id === Number(e.target.value));
              onChange({
                kind: 'group',
                groupId: g?.id ?? null,
                groupName: g?.name ?? '',
                members: g?.member_count ?? 0,
              });
            }}
          >
            <option value="">Choose a group</option>
            {(groups.data?.data ?? []).map((g) => (
              <option key={g.id} value={g.id}>
                {g.name} ({g.member_count})
              </option>
            ))}
          </Select>
        </Field>
      )}
    </fieldset>
  );
}
