import { describe, expect, it } from 'vitest';
import { createStatementNames } from './prepared-statements';

describe('statement names', () => {
  it('names a text once it has run often enough, the same name every time after', () => {
    const nameOf = createStatementNames({ nameAfter: 3, maxNames: 10 });
    const text = 'select "id" from "devices" where "devices"."id" = $1';
    expect(nameOf(text)).toBeUndefined();
    expect(nameOf(text)).toBeUndefined();
    const name = nameOf(text);
    expect(name).toMatch(/^outpost_[\w-]{24}$/);
    expect(nameOf(text)).toBe(name);
  });

  it('gives different texts different names, and none past the limit', () => {
    const nameOf = createStatementNames({ nameAfter: 1, maxNames: 2 });
    const a = nameOf('select 1 where $1::int > 0');
    const b = nameOf('select 2 where $1::int > 0');
    expect(a).toBeDefined();
    expect(b).toBeDefined();
    expect(a).not.toBe(b);
    expect(nameOf('select 3 where $1::int > 0')).toBeUndefined();
    expect(nameOf('select 1 where $1::int > 0')).toBe(a);
  });
});
