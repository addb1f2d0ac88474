import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import type { AlertCondition } from '@outpost/contract/alerts';
import { ALERT_CONDITIONS } from '@outpost/contract/alerts';
import type { Severity } from '@outpost/contract/checks';
import { SEVERITIES } from '@outpost/contract/checks';
import { NO_ALERT_FILTERS, isStateSegment } from '../../../lib/alert-view';
import type { AlertFilters } from '../../../lib/alert-view';

// The Alerts page's filters live in the address (docs/product/monitoring.md#the-alerts-page), so a
// device's badge can link to /alerts?device=<guid> and a filtered list can be shared.

const oneOf = <T extends string>(list: readonly T[], v: string | null): T | '' =>
  v !== null && (list as readonly string[]).includes(v) ? (v as T) : '';

export function filtersOf(p: URLSearchParams): AlertFilters {
  const state = p.get('state');
  return {
    state: isStateSegment(state) ? state : 'active',
    severity: oneOf<Severity>(SEVERITIES, p.get('severity')),
    condition: oneOf<AlertCondition>(ALERT_CONDITIONS, p.get('condition')),
    site: p.get('site') ?? '',
    group: p.get('group') ?? '',
    device: p.get('device') ?? '',
  };
}

export function useAlertFilters() {
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  const setFilter = useCallback(
    <K extends keyof AlertFilters>(key: K, value: AlertFilters[K]) =>
      setParams(
        (p) => {
          const next = new URLSearchParams(p);
          if (value === NO_ALERT_FILTERS[key]) {
            next.delete(key);
          } else {
            next.set(key, value);
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const clear = useCallback(
    () =>
      setParams(
        (p) => {
          const next = new URLSearchParams();
          const state = p.get('state');
          if (state) {
            next.set('state', state);
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const hasActiveFilters = (['severity', 'condition', 'site', 'group', 'device'] as const).some(
    (k) => filters[k] !== '',
  );
  return { filters, setFilter, clear, hasActiveFilters };
}
