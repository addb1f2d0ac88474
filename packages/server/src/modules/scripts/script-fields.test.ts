import { describe, expect, it } from 'vitest';
import { ScriptParamInput } from '@outpost/contract/scripts';
import { createSecretBox } from '../../lib/secret-box';
import { auditFields, toParamView, toStoredParams } from './script-fields';
import { freeName } from './script-transfer.service';

const box = createSecretBox(new TextEncoder().encode('unit-test-server-secret-0123456789'), 'scripts');
const param = (p: Record<string, unknown>) => ScriptParamInput.parse(p);

describe('stored parameters', () => {
  it('seals a secret default and shows only that one is set', () => {
    const [stored] = toStoredParams([param({ name: 'key', type: 'secret', default: 'pa55' })], [], box);
    expect(stored!.default).toBeNull();
    expect(box.open(stored!.sealedDefault!)).toBe('pa55');
    expect(toParamView(stored!)).toMatchObject({ default: null, has_default: true });
    expect(
      JSON.stringify(
        auditFields({
          name: 'x',
          description: '',
          category: '',
          language: 'bash',
          os: 'linux',
          body: 'b',
          timeoutSeconds: 5,
          params: [stored!],
        }),
      ),
    ).not.toContain('pa55');
  });

  it('keeps, replaces or drops a saved secret', () => {
    const before = toStoredParams([param({ name: 'key', type: 'secret', default: 'old' })], [], box);
    const kept = toStoredParams([param({ name: 'key', type: 'secret', keep_secret: true })], before, box);
    expect(kept[0]!.sealedDefault).toBe(before[0]!.sealedDefault);
    const replaced = toStoredParams(
      [param({ name: 'key', type: 'secret', default: 'new', keep_secret: true })],
      before,
      box,
    );
    expect(box.open(replaced[0]!.sealedDefault!)).toBe('new');
    expect(
      toStoredParams([param({ name: 'key', type: 'secret' })], before, box)[0]!.sealedDefault,
    ).toBeNull();
    // keep_secret keeps only a secret of the same name
    expect(
      toStoredParams([param({ name: 'other', type: 'secret', keep_secret: true })], before, box)[0]!
        .sealedDefault,
    ).toBeNull();
  });

  it('keeps only the fields a type has', () => {
    const [stored] = toStoredParams(
      [param({ name: 'n', type: 'text', options: ['a'], min: 1, max: 2, pattern: '' })],
      [],
      box,
    );
    expect(stored).toMatchObject({ options: [], min: null, max: null, pattern: null });
  });
});

describe('free names on import', () => {
  it('adds (imported), then (imported 2), ignoring case', () => {
    const taken = new Set(['disk', 'disk (imported)']);
    expect(freeName('Disk', taken)).toBe('Disk (imported 2)');
    expect(freeName('Other', taken)).toBe('Other');
    expect(freeName('other', taken)).toBe('other (imported)');
  });
});
