import type {
  Policy,
  PolicyCreateBody,
  PolicySchedule,
  PolicyTargetType,
  PolicyTrigger,
} from '@outpost/contract/policies';
import { PolicyTime, policyMessages } from '@outpost/contract/policies';
import { describeSchedule } from '@outpost/contract/policy-schedule';

// The policy dialog's form (docs/product/device-sets.md#automation-policies): text fields as the
// inputs hold them, turned into the API body; the server checks everything again.

export type Frequency = PolicySchedule['frequency'];

export type PolicyForm = {
  name: string;
  description: string;
  target_type: PolicyTargetType;
  site_id: string;
  group_id: string;
  package_id: string;
  trigger: PolicyTrigger;
  frequency: Frequency;
  time: string;
  weekdays: number[];
  /** "1"…"28" or "last" */
  day_of_month: string;
  enabled: boolean;
};

export const WEEKDAYS = [
  { value: 1, short: 'Mon', label: 'Monday' },
  { value: 2, short: 'Tue', label: 'Tuesday' },
  { value: 3, short: 'Wed', label: 'Wednesday' },
  { value: 4, short: 'Thu', label: 'Thursday' },
  { value: 5, short: 'Fri', label: 'Friday' },
  { value: 6, short: 'Sat', label: 'Saturday' },
  { value: 0, short: 'Sun', label: 'Sunday' },
] as const;

export const emptyPolicyForm: PolicyForm = {
  name: '',
  description: '',
  target_type: 'site',
  site_id: '',
  group_id: '',
  package_id: '',
  trigger: 'schedule',
  frequency: 'weekly',
  time: '02:00',
  weekdays: [1],
  day_of_month: '1',
  enabled: true,
};

export function policyToForm(p: Policy): PolicyForm {
  const s = p.schedule;
  return {
    name: p.name,
    description: p.description ?? '',
    target_type: p.target.type,
    site_id: p.target.site_id === null ? '' : String(p.target.site_id),
    group_id: p.target.group_id === null ? '' : String(p.target.group_id),
    package_id: p.package_id === null ? '' : String(p.package_id),
    trigger: p.trigger,
    frequency: s?.frequency ?? 'weekly',
    time: s?.time ?? '02:00',
    weekdays: s?.frequency === 'weekly' ? s.weekdays : [1],
    day_of_month: s?.frequency === 'monthly' ? String(s.day_of_month) : '1',
    enabled: p.enabled,
  };
}

export function formSchedule(f: PolicyForm): PolicySchedule {
  switch (f.frequency) {
    case 'daily':
      return { frequency: 'daily', time: f.time };
    case 'weekly':
      return { frequency: 'weekly', time: f.time, weekdays: [...f.weekdays].sort((a, b) => a - b) };
    case 'monthly':
      return {
        frequency: 'monthly',
        time: f.time,
        day_of_month: f.day_of_month === 'last' ? 'last' : Number(f.day_of_month),
      };
  }
}

/** The first problem the form has, in the order of its fields, or null. */
export function validatePolicyForm(f: PolicyForm): string | null {
  if (!f.name.trim()) {
    return policyMessages.nameRequired;
  }
  if (f.target_type === 'site' && !f.site_id) {
    return policyMessages.siteRequired;
  }
  if (f.target_type === 'group' && !f.group_id) {
    return policyMessages.groupRequired;
  }
  if (!f.package_id) {
    return 'Choose the package the policy deploys';
  }
  if (f.trigger === 'schedule') {
    if (!PolicyTime.safeParse(f.time).success) {
      return policyMessages.timeInvalid;
    }
    if (f.frequency === 'weekly' && f.weekdays.length === 0) {
      return policyMessages.weekdaysRequired;
    }
  }
  return null;
}

export function policyFormToBody(f: PolicyForm): PolicyCreateBody {
  return {
    name: f.name.trim(),
    description: f.description.trim() || null,
    target_type: f.target_type,
    site_id: f.target_type === 'site' ? Number(f.site_id) : null,
    group_id: f.target_type === 'group' ? Number(f.group_id) : null,
    package_id: Number(f.package_id),
    trigger: f.trigger,
    schedule: f.trigger === 'schedule' ? formSchedule(f) : null,
    enabled: f.enabled,
  };
}

/** What the list shows under Trigger and Schedule. */
export function triggerText(p: Pick<Policy, 'trigger' | 'schedule'>): string {
  if (p.trigger === 'join' || !p.schedule) {
    return 'When a device joins';
  }
  return describeSchedule(p.schedule);
}
