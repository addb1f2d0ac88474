import { describe, expect, it } from 'vitest';
import { PolicyCreateBody } from '@outpost/contract/policies';
import { emptyPolicyForm, policyFormToBody, triggerText, validatePolicyForm } from './policy-form';

describe('policy form', () => {
  it('says the first missing field', () => {
    expect(validatePolicyForm(emptyPolicyForm)).toBe('Policy name is required');
    expect(validatePolicyForm({ ...emptyPolicyForm, name: 'Patch' })).toBe(
      'Choose the site the policy targets',
    );
    expect(
      validatePolicyForm({ ...emptyPolicyForm, name: 'Patch', site_id: '2', package_id: '4', weekdays: [] }),
    ).toBe('Choose at least one day of the week');
  });

  it('builds a body the contract accepts', () => {
    const form = { ...emptyPolicyForm, name: ' Patch ', site_id: '2', package_id: '4', weekdays: [3, 1] };
    expect(validatePolicyForm(form)).toBeNull();
    const body = policyFormToBody(form);
    expect(PolicyCreateBody.parse(body)).toMatchObject({
      name: 'Patch',
      target_type: 'site',
      site_id: 2,
      schedule: { frequency: 'weekly', time: '02:00', weekdays: [1, 3] },
    });
    const join = policyFormToBody({ ...form, trigger: 'join', target_type: 'tenant' });
    expect(join).toMatchObject({ schedule: null, site_id: null });
  });

  it('puts the trigger in words', () => {
    expect(triggerText({ trigger: 'join', schedule: null })).toBe('When a device joins');
    expect(triggerText({ trigger: 'schedule', schedule: { frequency: 'daily', time: '01:00' } })).toBe(
      'Every day at 01:00',
    );
  });
});
