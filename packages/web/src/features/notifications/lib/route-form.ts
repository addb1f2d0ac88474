import { AlertRouteBody } from '@outpost/contract/alerts';
import type { AlertCondition, AlertRoute } from '@outpost/contract/alerts';
import type { Severity } from '@outpost/contract/checks';

// The routing rule dialog's fields and the body they make, checked by the contract's own schema
// (docs/product/monitoring.md#routing-rules). No condition chosen means every condition.

export type RouteForm = {
  name: string;
  enabled: boolean;
  severities: Severity[];
  conditions: AlertCondition[];
  target_type: 'tenant' | 'site' | 'group';
  /** the chosen site's or group's id, as the select holds it */
  site_id: string;
  group_id: string;
  channel_ids: number[];
};
export type RouteErrors = Partial<Record<keyof RouteForm, string>>;

export function routeFormOf(route: AlertRoute | null): RouteForm {
  return {
    name: route?.name ?? '',
    enabled: route?.enabled ?? true,
    severities: route?.severities ?? ['warning', 'critical'],
    conditions: route?.conditions ?? [],
    target_type: route?.target.type ?? 'tenant',
    site_id: route?.target.site_id ? String(route.target.site_id) : '',
    group_id: route?.target.group_id ? String(route.target.group_id) : '',
    channel_ids: route?.channels.map((c) => c.id) ?? [],
  };
}

/** Adds or takes away one value of a multiple choice. */
export function toggled<T>(list: readonly T[], value: T): T[] {
  return list.includes(value) ? list.filter((v) => v !== value) : [...list, value];
}

export function routeBodyOf(f: RouteForm): { body: AlertRouteBody } | { errors: RouteErrors } {
  const errors: RouteErrors = {};
  if (f.target_type === 'site' && !f.site_id) {
    errors.site_id = 'Choose a site';
  }
  if (f.target_type === 'group' && !f.group_id) {
    errors.group_id = 'Choose a group';
  }
  const parsed = AlertRouteBody.safeParse({
    name: f.name,
    enabled: f.enabled,
    severities: f.severities,
    conditions: f.conditions,
    target_type: f.target_type,
    site_id: f.target_type === 'site' && f.site_id ? Number(f.site_id) : null,
    group_id: f.target_type === 'group' && f.group_id ? Number(f.group_id) : null,
    channel_ids: f.channel_ids,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0]) as keyof RouteForm;
      errors[key in f ? key : 'name'] ??= issue.message;
    }
  }
  if (Object.keys(errors).length > 0 || !parsed.success) {
    return { errors };
  }
  return { body: parsed.data };
}
