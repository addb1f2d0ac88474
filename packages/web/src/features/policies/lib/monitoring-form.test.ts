import { describe, expect, it } from 'vitest';
import { CHECK_TYPES, checkMessages } from '@outpost/contract/checks';
import { policyMessages } from '@outpost/contract/policies';
import {
  MonitoringFormSchema,
  emptyMonitoringForm,
  intervalText,
  monitoringFormToBody,
  newCheck,
} from './monitoring-form';

// docs/product/monitoring.md#monitoring-policies: the dialog's form checks what the server checks.

describe('monitoring policy form', () => {
  it('turns a valid form into the body, ids as numbers', () => {
    const form = { ...emptyMonitoringForm('site'), name: 'Servers', site_id: '4', offline_alert_minutes: 15 };
    const parsed = MonitoringFormSchema.parse(form);
    const body = monitoringFormToBody(parsed);
    expect(body).toMatchObject({
      name: 'Servers',
      target_type: 'site',
      site_id: 4,
      group_id: null,
      offline_alert_minutes: 15,
    });
    expect(body.checks).toHaveLength(1);
  });

  it("gives the contract's messages", () => {
    const noSite = MonitoringFormSchema.safeParse({ ...emptyMonitoringForm('site'), name: 'x' });
    expect(noSite.error?.issues.map((i) => i.message)).toEqual([policyMessages.siteRequired]);
    const fastCheck = { ...newCheck('memory'), interval_seconds: 5 };
    const tooFast = MonitoringFormSchema.safeParse({
      ...emptyMonitoringForm('tenant'),
      name: 'x',
      checks: [fastCheck],
    });
    expect(tooFast.error?.issues.map((i) => i.message)).toEqual([checkMessages.interval]);
  });

  it('offers a default for every check type (the empty text fields asked for)', () => {
    for (const type of CHECK_TYPES) {
      expect(newCheck(type).config.type).toBe(type);
    }
    expect(intervalText(300)).toBe('Every 5 min');
    expect(intervalText(45)).toBe('Every 45 s');
  });
});
