import { useCallback, useState } from 'react';
import { useSearchParams } from 'react-router';
import { DEVICE_LIST_FIELDS_MAX } from '@outpost/contract/devices';

// The device list's set filters (docs/product/device-sets.md#device-list-filters) live in the
// address (?tag_id=, ?group_id=, ?field_key=&field_value=&field_op=), so a link to "the devices of
// this group" or "tagged Kiosk" opens the list filtered; the custom-field columns shown are kept in
// local storage.

export type FieldOp = 'eq' | 'lt' | 'gt';
export type SetFilters = {
  tag_id?: number;
  group_id?: number;
  field_key?: string;
  field_value?: string;
  field_op?: FieldOp;
};

const idOf = (v: string | null) => (v && /^\d{1,10}$/.test(v) && Number(v) > 0 ? Number(v) : undefined);
const opOf = (v: string | null): FieldOp | undefined =>
  v === 'lt' || v === 'gt' || v === 'eq' ? v : undefined;

export function useDeviceSetFilters(onChange: () => void) {
  const [params, setParams] = useSearchParams();
  const fieldKey = params.get('field_key') ?? undefined;
  const fieldValue = params.get('field_value') ?? undefined;
  const hasField = fieldKey !== undefined && fieldValue !== undefined;
  const filters: SetFilters = {
    tag_id: idOf(params.get('tag_id')),
    group_id: idOf(params.get('group_id')),
    field_key: hasField ? fieldKey : undefined,
    field_value: hasField ? fieldValue : undefined,
    field_op: hasField ? opOf(params.get('field_op')) : undefined,
  };
  const set = useCallback(
    (patch: Record<string, string | undefined>) => {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(patch)) {
            if (v === undefined || v === '') {
              next.delete(k);
            } else {
              next.set(k, v);
            }
          }
          return next;
        },
        { replace: true },
      );
      onChange();
    },
    [setParams, onChange],
  );
  const isActive = Boolean(filters.tag_id || filters.group_id || hasField);
  return {
    filters,
    isActive,
    setTag: (id: string) => set({ tag_id: id }),
    setGroup: (id: string) => set({ group_id: id }),
    setField: (key?: string, value?: string, op?: FieldOp) =>
      set({
        field_key: key,
        field_value: key ? value : undefined,
        field_op: key && op !== 'eq' ? op : undefined,
      }),
    clear: () =>
      set({
        tag_id: undefined,
        group_id: undefined,
        field_key: undefined,
        field_value: undefined,
        field_op: undefined,
      }),
  };
}

const COLUMNS_KEY = 'outpost.devices.fieldColumns';

function readColumns(): string[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(COLUMNS_KEY) ?? '[]');
    return Array.isArray(parsed)
      ? parsed.filter((k): k is string => typeof k === 'string').slice(0, DEVICE_LIST_FIELDS_MAX)
      : [];
  } catch {
    return [];
  }
}

/** The custom fields shown as columns, by key, remembered in this browser. */
export function useFieldColumns() {
  const [keys, setKeys] = useState<string[]>(readColumns);
  const toggle = useCallback((key: string) => {
    setKeys((prev) => {
      const next = prev.includes(key)
        ? prev.filter((k) => k !== key)
        : [...prev, key].slice(0, DEVICE_LIST_FIELDS_MAX);
      try {
        localStorage.setItem(COLUMNS_KEY, JSON.stringify(next));
      } catch {
        // storage unavailable: the choice lasts for this page only
      }
      return next;
    });
  }, []);
  return { keys, toggle };
}
