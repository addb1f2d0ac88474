// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@outpost/contract/users';
import { UserFilterSelect } from './user-filter-select';

const user = (id: number, email: string, name: string | null): User => ({
  id,
  email,
  name,
  role: 'user',
  status: 'active' as const,
  site_access_type: 'all',
  assigned_site_ids: '',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
});
const users = [user(2, 'nobody@acme.example', null), user(1, 'admin@acme.example', 'Alex Morgan')];

describe('audit User filter (docs/product/activity.md#audit-log)', () => {
  afterEach(cleanup);

  it('offers All Users, then users by name or else email, sorted, with the email beneath', async () => {
    const events = userEvent.setup();
    render(<UserFilterSelect id="u" users={users} value="" onChange={vi.fn()} />);
    await events.click(screen.getByRole('button', { name: 'User: All Users' }));
    const options = screen.getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      'All Users',
      'Alex Morganadmin@acme.example',
      'nobody@acme.example',
    ]);
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
  });

  it('chooses with a click or with the keyboard', async () => {
    const onChange = vi.fn();
    const events = userEvent.setup();
    const { rerender } = render(<UserFilterSelect id="u" users={users} value="" onChange={onChange} />);
    await events.click(screen.getByRole('button', { name: 'User: All Users' }));
    await events.click(screen.getByRole('option', { name: /Alex Morgan/ }));
    expect(onChange).toHaveBeenLastCalledWith('1');
    expect(screen.queryByRole('listbox')).toBeNull();

    rerender(<UserFilterSelect id="u" users={users} value="1" onChange={onChange} />);
    screen.getByRole('button', { name: 'User: Alex Morgan' }).focus();
    await events.keyboard('{ArrowDown}');
    expect(screen.getByRole('listbox')).toHaveFocus();
    await events.keyboard('{ArrowDown}{Enter}');
    expect(onChange).toHaveBeenLastCalledWith('2');
    await events.keyboard('{ArrowDown}{Home}{Enter}');
    expect(onChange).toHaveBeenLastCalledWith('');
    await events.keyboard('{ArrowDown}{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(onChange).toHaveBeenCalledTimes(3);
  });
});
