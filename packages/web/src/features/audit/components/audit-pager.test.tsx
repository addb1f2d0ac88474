// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuditPager } from './audit-pager';

const goTo = () => screen.getByRole('textbox', { name: /Go to page/ });

describe('audit pager (docs/product/activity.md#audit-log)', () => {
  afterEach(cleanup);

  it('is hidden with one page or fewer', () => {
    const { container } = render(<AuditPager page={1} totalPages={1} onPageChange={vi.fn()} />);
    expect(container).toBeEmptyDOMElement();
  });

  it('has no go-to box up to 5 pages, and shows Page X of Y for small screens', () => {
    render(<AuditPager page={2} totalPages={5} onPageChange={vi.fn()} />);
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.getByText('Page 2 of 5')).toBeInTheDocument();
  });

  it('shows ellipses around the pages near the current one', () => {
    render(<AuditPager page={10} totalPages={20} onPageChange={vi.fn()} />);
    const numbers = screen.getAllByRole('button', { name: /^Page \d+$/ }).map((b) => b.textContent);
    expect(numbers).toEqual(['1', '8', '9', '10', '11', '12', '20']);
    expect(screen.getAllByText('…')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Page 10' })).toHaveAttribute('aria-current', 'page');
  });

  it('goes to a whole page number from 1 to the total on Enter, then clears the box', async () => {
    const onPageChange = vi.fn();
    const user = userEvent.setup();
    render(<AuditPager page={1} totalPages={8} onPageChange={onPageChange} />);
    await user.type(goTo(), '7');
    expect(onPageChange).not.toHaveBeenCalled();
    await user.keyboard('{Enter}');
    expect(onPageChange).toHaveBeenCalledWith(7);
    expect(goTo()).toHaveValue('');
  });

  it('ignores anything else', async () => {
    const onPageChange = vi.fn();
    const user = userEvent.setup();
    render(<AuditPager page={1} totalPages={8} onPageChange={onPageChange} />);
    for (const text of ['0', '9', '2.5', 'abc', '-3']) {
      await user.clear(goTo());
      await user.type(goTo(), `${text}{Enter}`);
      expect(goTo()).toHaveValue(text);
    }
    expect(onPageChange).not.toHaveBeenCalled();
  });
});
