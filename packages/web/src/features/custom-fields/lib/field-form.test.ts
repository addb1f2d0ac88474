import { describe, expect, it } from 'vitest';
import { customFieldMessages } from '@outpost/contract/custom-fields';
import { createBody, emptyFieldForm, keyFromName, optionsOf, validateFieldForm } from './field-form';

describe('custom field form', () => {
  it('derives a valid key from a name', () => {
    expect(keyFromName('Warranty end (UTC)')).toBe('warranty_end_utc');
    expect(keyFromName('  2nd Owner ')).toBe('nd_owner');
    expect(keyFromName('Ünïcode Name')).toBe('unicode_name');
    expect(keyFromName('x'.repeat(60))).toHaveLength(40);
  });

  it('reads options one per line, only for select fields', () => {
    expect(optionsOf({ field_type: 'select', options: ' pilot \n\nbroad\n' })).toEqual(['pilot', 'broad']);
    expect(optionsOf({ field_type: 'text', options: 'pilot' })).toEqual([]);
  });

  it("checks with the contract's messages", () => {
    const form = { ...emptyFieldForm, name: 'Ring', key: 'ring', field_type: 'select' as const };
    expect(validateFieldForm(form, false)).toBe(customFieldMessages.optionsRequired);
    expect(validateFieldForm({ ...form, options: 'a\nb', default_value: 'c' }, false)).toBe(
      customFieldMessages.defaultInvalid(customFieldMessages.notAnOption(['a', 'b'])),
    );
    expect(validateFieldForm({ ...form, options: 'a\nb', default_value: 'b' }, true)).toBeNull();
    expect(createBody({ ...form, options: 'a\nb' })).toMatchObject({
      options: ['a', 'b'],
      default_value: null,
    });
  });
});
