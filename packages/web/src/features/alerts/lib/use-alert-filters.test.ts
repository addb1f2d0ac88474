import { describe, expect, it } from 'vitest';
import { filtersOf } from './use-alert-filters';

describe('the Alerts page filters from the address', () => {
  it('reads a device link and defaults to the active alerts', () => {
    expect(filtersOf(new URLSearchParams('device=abc'))).toEqual({
      state: 'active',
      severity: '',
      condition: '',
      site: '',
      group: '',
      device: 'abc',
    });
  });

  it('keeps known values and drops unknown ones', () => {
    expect(
      filtersOf(new URLSearchParams('state=resolved&severity=critical&condition=offline&site=2')),
    ).toMatchObject({
      state: 'resolved',
      severity: 'critical',
      condition: 'offline',
      site: '2',
    });
    expect(filtersOf(new URLSearchParams('state=nope&severity=loud&condition=x'))).toMatchObject({
      state: 'active',
      severity: '',
      condition: '',
    });
  });
});
