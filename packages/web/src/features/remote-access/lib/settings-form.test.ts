import { describe, expect, it } from 'vitest';
import { DEFAULT_REMOTE_ACCESS } from '@outpost/contract/remote-access';
import { fromForm, toForm } from './settings-form';

describe('remote access settings form', () => {
  it('round-trips the defaults through the units people edit', () => {
    const form = toForm(DEFAULT_REMOTE_ACCESS);
    expect(form).toMatchObject({ rate_kib: '1024', file_mib: '2048', idle_timeout_minutes: '15' });
    expect(fromForm(form)).toEqual({ update: DEFAULT_REMOTE_ACCESS });
  });

  it('says what is out of range, and that a role is needed', () => {
    const result = fromForm({
      ...toForm(DEFAULT_REMOTE_ACCESS),
      idle_timeout_minutes: '0',
      file_mib: 'x',
      allowed_roles: [],
    });
    expect(result).toEqual({
      errors: {
        idle_timeout_minutes: 'Between 1 and 240 minutes',
        file_mib: 'Enter a whole number',
        allowed_roles: 'Choose at least one role',
      },
    });
  });
});
