import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  canonicalValue,
  checkDefinition,
  CustomFieldCreateBody,
  customFieldMessages,
  isCalendarDate,
} from './custom-fields';
import type { FieldShape } from './custom-fields';

const number: FieldShape = { field_type: 'number', options: [] };
const date: FieldShape = { field_type: 'date', options: [] };
const bool: FieldShape = { field_type: 'boolean', options: [] };
const text: FieldShape = { field_type: 'text', options: [] };

const canonical = (shape: FieldShape, input: string | number | boolean) => {
  const result = canonicalValue(shape, input);
  if (!result.ok) {
    throw new Error(`not canonicalised: ${String(input)} (${result.reason})`);
  }
  return result;
};

describe('custom field values: canonical forms (docs/product/device-sets.md#custom-fields)', () => {
  it('a finite number reads back as itself from its canonical text, which is stable', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        const first = canonical(number, n);
        expect(Number(first.text)).toBe(Object.is(n, -0) ? 0 : n);
        expect(first.number).toBe(n);
        const again = canonical(number, first.text);
        expect(again.text).toBe(first.text);
      }),
    );
  });

  it('numbers written differently have one canonical text', () => {
    expect(canonical(number, '  +1.50 ').text).toBe('1.5');
    expect(canonical(number, '1e3').text).toBe('1000');
    expect(canonical(number, '-0').text).toBe('0');
    expect(canonical(number, '.25').text).toBe('0.25');
    for (const bad of ['', 'abc', '1,5', 'Infinity', 'NaN', '0x10', '1e400']) {
      expect(canonicalValue(number, bad)).toEqual({ ok: false, reason: customFieldMessages.notANumber });
    }
  });

  it('every calendar date round-trips; impossible dates are refused', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('0001-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }),
        (d) => {
          const iso = d.toISOString().slice(0, 10);
          expect(isCalendarDate(iso)).toBe(true);
          expect(canonical(date, ` ${iso} `).text).toBe(iso);
        },
      ),
    );
    for (const bad of ['2026-02-30', '2026-13-01', '2026-1-01', '2025-02-29', '26-01-01', 'today']) {
      expect(canonicalValue(date, bad).ok, bad).toBe(false);
    }
    expect(canonical(date, '2024-02-29').text).toBe('2024-02-29');
  });

  it('booleans are true or false, whatever the spelling', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.constantFrom('true', 'yes', '1', 'false', 'no', '0'), (b, word) => {
        expect(canonical(bool, b).text).toBe(String(b));
        const cased = word.toUpperCase();
        expect(canonical(bool, cased).text).toBe(['true', 'yes', '1'].includes(word) ? 'true' : 'false');
        expect(canonical(bool, canonical(bool, cased).text).text).toBe(canonical(bool, cased).text);
      }),
    );
    expect(canonicalValue(bool, 'maybe').ok).toBe(false);
  });

  it('a select value is one of the options, exactly', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc
            .string({ minLength: 1 })
            .map((s) => s.trim())
            .filter(Boolean),
          { minLength: 1 },
        ),
        (options) => {
          const shape: FieldShape = { field_type: 'select', options };
          for (const option of options) {
            expect(canonical(shape, option).text).toBe(option);
          }
          expect(canonicalValue(shape, `${options.join('')}x`).ok).toBe(false);
        },
      ),
    );
  });

  it('text is trimmed, stable and at most 500 characters', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 600 }), (s) => {
        const result = canonicalValue(text, s);
        const trimmed = s.trim();
        if (trimmed === '' || trimmed.length > 500) {
          expect(result.ok).toBe(false);
          return;
        }
        expect(result).toEqual({ ok: true, text: trimmed, number: null });
        expect(canonical(text, trimmed).text).toBe(trimmed);
      }),
    );
  });
});

describe('custom field definitions', () => {
  const parse = (body: unknown) => CustomFieldCreateBody.safeParse(body);

  it('takes a valid definition and canonicalises its default', () => {
    const result = parse({
      key: 'warranty_end',
      name: 'Warranty end',
      field_type: 'number',
      default_value: '007',
    });
    expect(result.success && result.data).toMatchObject({ default_value: '7', options: [], required: false });
  });

  it('refuses bad keys, names, options and defaults with a message', () => {
    const messageOf = (body: unknown) => {
      const r = parse(body);
      return r.success ? null : r.error.issues[0]?.message;
    };
    const base = { key: 'ok', name: 'OK', field_type: 'text' };
    expect(messageOf({ ...base, key: 'Bad' })).toBe(customFieldMessages.keyInvalid);
    expect(messageOf({ ...base, key: `a${'b'.repeat(40)}` })).toBe(customFieldMessages.keyInvalid);
    expect(messageOf({ ...base, key: '1a' })).toBe(customFieldMessages.keyInvalid);
    expect(messageOf({ ...base, name: ' ' })).toBe(customFieldMessages.nameRequired);
    expect(messageOf({ ...base, name: 'x'.repeat(61) })).toBe(customFieldMessages.nameTooLong);
    expect(messageOf({ ...base, field_type: 'select' })).toBe(customFieldMessages.optionsRequired);
    expect(messageOf({ ...base, field_type: 'select', options: ['a', 'a'] })).toBe(
      customFieldMessages.optionDuplicate('a'),
    );
    expect(messageOf({ ...base, field_type: 'select', options: ['a', ' '] })).toBe(
      customFieldMessages.optionEmpty,
    );
    expect(messageOf({ ...base, options: ['a'] })).toBe(customFieldMessages.optionsOnlyForSelect);
    expect(messageOf({ ...base, field_type: 'date', default_value: '2026-02-30' })).toBe(
      customFieldMessages.defaultInvalid(customFieldMessages.notADate),
    );
    expect(messageOf({ ...base, field_type: 'select', options: ['a', 'b'], default_value: 'c' })).toBe(
      customFieldMessages.defaultInvalid(customFieldMessages.notAnOption(['a', 'b'])),
    );
  });

  it('checkDefinition accepts 50 options and refuses 51', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => `o${i}`);
    expect(checkDefinition({ field_type: 'select', options: many(50), default_value: 'o3' })).toEqual({
      ok: true,
      default_value: 'o3',
    });
    expect(checkDefinition({ field_type: 'select', options: many(51), default_value: null }).ok).toBe(false);
  });
});
