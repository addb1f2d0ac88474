import { z } from 'zod';
import {
  CHECK_TYPE_LABELS,
  CHECKS_PER_POLICY_MAX,
  CheckInput,
  MonitoringPolicyBody,
  Severity,
  checkMessages,
} from '@outpost/contract/checks';
import type { CheckConfigInput, CheckType, MonitoringPolicy } from '@outpost/contract/checks';
import { PolicyTargetType, policyMessages } from '@outpost/contract/policies';

// The monitoring policy dialog's form (docs/product/monitoring.md#monitoring-policies): the
// contract's check and policy rules with the target as the selects hold it (ids as text); the
// server checks everything again.

export const MonitoringFormSchema = z
  .object({
    name: MonitoringPolicyBody.shape.name,
    description: z.string().max(1000, 'Description must be 1000 characters or less'),
    target_type: PolicyTargetType,
    site_id: z.string(),
    group_id: z.string(),
    enabled: z.boolean(),
    /** null: no offline alert */
    offline_alert_minutes: MonitoringPolicyBody.shape.offline_alert_minutes,
    offline_severity: Severity,
    checks: z.array(CheckInput).max(CHECKS_PER_POLICY_MAX, checkMessages.tooManyChecks),
  })
  .superRefine((f, ctx) => {
    if (f.target_type === 'site' && f.site_id === '') {
      ctx.addIssue({ code: 'custom', path: ['site_id'], message: policyMessages.siteRequired });
    }
    if (f.target_type === 'group' && f.group_id === '') {
      ctx.addIssue({ code: 'custom', path: ['group_id'], message: policyMessages.groupRequired });
    }
  });
export type MonitoringFormValues = z.input<typeof MonitoringFormSchema>;
export type MonitoringFormOutput = z.output<typeof MonitoringFormSchema>;
export type CheckDraft = MonitoringFormValues['checks'][number];

/** Each type's settings as a new check starts with them. */
export function defaultConfig(type: CheckType): CheckConfigInput {
  switch (type) {
    case 'cpu':
      return { type, percent: 90, minutes: 5 };
    case 'memory':
      return { type, percent: 90 };
    case 'disk':
      return { type, volume: '*', min_free_percent: 10, min_free_gb: null };
    case 'service':
      return { type, service: '' };
    case 'process':
      return { type, process: '', expect: 'running' };
    case 'port':
      return { type, host: 'localhost', port: 443, timeout_ms: 3000 };
    case 'script':
      return { type, shell: 'powershell', script: '', timeout_seconds: 60 };
    case 'event':
      return { type, event: 'reboot_pending' };
  }
}

export function newCheck(type: CheckType = 'cpu'): CheckDraft {
  return {
    name: CHECK_TYPE_LABELS[type],
    config: defaultConfig(type),
    interval_seconds: 60,
    failures_before_alert: 1,
    severity: 'warning',
  };
}

export const emptyMonitoringForm = (
  targetType: MonitoringFormValues['target_type'],
): MonitoringFormValues => ({
  name: '',
  description: '',
  target_type: targetType,
  site_id: '',
  group_id: '',
  enabled: true,
  offline_alert_minutes: null,
  offline_severity: 'warning',
  checks: [newCheck('cpu')],
});

export function monitoringPolicyToForm(p: MonitoringPolicy): MonitoringFormValues {
  return {
    name: p.name,
    description: p.description ?? '',
    target_type: p.target.type,
    site_id: p.target.site_id === null ? '' : String(p.target.site_id),
    group_id: p.target.group_id === null ? '' : String(p.target.group_id),
    enabled: p.enabled,
    offline_alert_minutes: p.offline_alert_minutes,
    offline_severity: p.offline_severity,
    checks: p.checks.map((c) => ({
      id: c.id,
      name: c.name,
      config: c.config,
      interval_seconds: c.interval_seconds,
      failures_before_alert: c.failures_before_alert,
      severity: c.severity,
    })),
  };
}

/** The API body: every field named (a PUT replaces them all; checks keep their ids). */
export function monitoringFormToBody(f: MonitoringFormOutput): MonitoringPolicyBody {
  return {
    name: f.name,
    description: f.description.trim() === '' ? null : f.description.trim(),
    target_type: f.target_type,
    site_id: f.target_type === 'site' ? Number(f.site_id) : null,
    group_id: f.target_type === 'group' ? Number(f.group_id) : null,
    enabled: f.enabled,
    offline_alert_minutes: f.offline_alert_minutes,
    offline_severity: f.offline_severity,
    checks: f.checks,
  };
}

/** "Every 5 min", "Every 30 s", "Every 2 h". */
export function intervalText(seconds: number): string {
  if (seconds % 3600 === 0) {
    return `Every ${seconds / 3600} h`;
  }
  if (seconds % 60 === 0) {
    return `Every ${seconds / 60} min`;
  }
  return `Every ${seconds} s`;
}

/** "15 min", "2 h", "1 d" for the offline threshold. */
export function minutesText(minutes: number): string {
  if (minutes % 1440 === 0) {
    return `${minutes / 1440} d`;
  }
  if (minutes % 60 === 0) {
    return `${minutes / 60} h`;
  }
  return `${minutes} min`;
}
