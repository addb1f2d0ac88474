import type { Alert, AlertCondition, AlertCounts, AlertState, Maintenance } from '@outpost/contract/alerts';
import { MAINTENANCE_MAX_HOURS } from '@outpost/contract/alerts';
import type { Severity } from '@outpost/contract/checks';
import type { Tone } from '../components/ui/badge';
import type { AlertListParams } from './api/alerts';
import { formatDateTime } from './format';

// How alerts read on every screen (docs/product/monitoring.md#the-alerts-page): severity colours
// and order, state words, the list filters as a query, and the maintenance durations.

export const SEVERITY_RANK: Record<Severity, number> = { info: 0, warning: 1, critical: 2 };
export const SEVERITY_TONES: Record<Severity, Tone> = { info: 'blue', warning: 'yellow', critical: 'red' };

/** The worst of some severities (null for none). */
export function worstSeverity(severities: readonly Severity[]): Severity | null {
  return severities.reduce<Severity | null>(
    (worst, s) => (worst === null || SEVERITY_RANK[s] > SEVERITY_RANK[worst] ? s : worst),
    null,
  );
}

export const STATE_LABELS: Record<AlertState, string> = {
  open: 'Open',
  acknowledged: 'Acknowledged',
  resolved: 'Resolved',
};
export const STATE_TONES: Record<AlertState, Tone> = {
  open: 'red',
  acknowledged: 'yellow',
  resolved: 'green',
};

/** The segmented states of the Alerts page; `active` is open and acknowledged together. */
export const STATE_SEGMENTS = ['active', 'open', 'acknowledged', 'resolved', 'all'] as const;
export type StateSegment = (typeof STATE_SEGMENTS)[number];
export const SEGMENT_LABELS: Record<StateSegment, string> = {
  active: 'Active',
  open: 'Open',
  acknowledged: 'Acknowledged',
  resolved: 'Resolved',
  all: 'All',
};
export const isStateSegment = (v: string | null): v is StateSegment =>
  v !== null && (STATE_SEGMENTS as readonly string[]).includes(v);

/** The Alerts page's filters as the select boxes hold them ('' is any). */
export type AlertFilters = {
  state: StateSegment;
  severity: Severity | '';
  condition: AlertCondition | '';
  site: string;
  group: string;
  device: string;
};
export const NO_ALERT_FILTERS: AlertFilters = {
  state: 'active',
  severity: '',
  condition: '',
  site: '',
  group: '',
  device: '',
};

/** The GET /alerts query of the filters, leaving out what is not chosen. */
export function alertListParams(f: AlertFilters, page: number, pageSize: number): AlertListParams {
  const id = (v: string) => (/^[1-9]\d*$/.test(v) ? Number(v) : undefined);
  return {
    state: f.state,
    ...(f.severity && { severity: f.severity }),
    ...(f.condition && { condition: f.condition }),
    ...(f.device && { device: f.device }),
    ...(id(f.site) !== undefined && { site_id: id(f.site) }),
    ...(id(f.group) !== undefined && { group_id: id(f.group) }),
    page,
    page_size: pageSize,
  };
}

export const openTotal = (c: AlertCounts) => c.open.critical + c.open.warning + c.open.info;

/** The navigation badge: how many open alerts, red when one is critical. */
export function navBadgeOf(c: AlertCounts | undefined): { count: number; isCritical: boolean } | null {
  if (!c || openTotal(c) === 0) {
    return null;
  }
  return { count: openTotal(c), isCritical: c.open.critical > 0 };
}

/** The alert's last words of its timeline: who resolved it, or that it resolved by itself. */
export function resolutionOf(a: Alert): string | null {
  if (a.state !== 'resolved') {
    return null;
  }
  return a.resolved_by ? `Resolved by ${a.resolved_by}` : 'Resolved by itself';
}

// ---------- maintenance ----------

export const MAINTENANCE_PRESETS = [
  { key: '30m', label: '30 min', minutes: 30 },
  { key: '1h', label: '1 hour', minutes: 60 },
  { key: '4h', label: '4 hours', minutes: 240 },
  { key: '1d', label: '1 day', minutes: 1440 },
] as const;
export type MaintenancePreset = (typeof MAINTENANCE_PRESETS)[number]['key'] | 'custom';
export const CUSTOM_UNITS = { minutes: 1, hours: 60, days: 1440 } as const;
export type CustomUnit = keyof typeof CUSTOM_UNITS;

/** The minutes of a preset, or of a custom amount and unit; an error when out of bounds. */
export function maintenanceMinutes(
  preset: MaintenancePreset,
  amount: string,
  unit: CustomUnit,
): { minutes: number } | { error: string } {
  const found = MAINTENANCE_PRESETS.find((p) => p.key === preset);
  if (found) {
    return { minutes: found.minutes };
  }
  const n = Number(amount);
  const minutes = Math.round(n * CUSTOM_UNITS[unit]);
  if (amount.trim() === '' || !Number.isFinite(n) || minutes < 5 || minutes > MAINTENANCE_MAX_HOURS * 60) {
    return { error: `Maintenance lasts 5 minutes to ${MAINTENANCE_MAX_HOURS / 24} days` };
  }
  return { minutes };
}

/** "In maintenance until …" or "Site in maintenance until …", with the reason and who set it. */
export function maintenanceText(m: Maintenance): { title: string; detail: string | null } {
  const title = `${m.scope === 'site' ? 'Site in maintenance' : 'In maintenance'} until ${formatDateTime(m.until)}`;
  const parts = [m.reason, m.set_by && `by ${m.set_by}`].filter(Boolean);
  return { title, detail: parts.length > 0 ? parts.join(', ') : null };
}
