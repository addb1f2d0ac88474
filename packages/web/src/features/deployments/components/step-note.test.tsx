// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { StatusBadge } from '../../../components/ui/badge';
import { StepNote } from './step-note';

// docs/product/rollouts.md#step-log: a skipped step shows a neutral "Skipped" badge and why.

describe('a skipped step in the step log', () => {
  afterEach(cleanup);

  it('shows a neutral Skipped badge', () => {
    render(<StatusBadge status="skipped" />);
    const badge = screen.getByText('Skipped');
    expect(badge).toBeVisible();
    expect(badge.className).toContain('slate');
    expect(badge.className).not.toMatch(/red|green/);
  });

  it('shows the note, and nothing without one', () => {
    const { rerender } = render(<StepNote note="Skipped: C:\App\app.exe does not exist" />);
    expect(screen.getByTestId('step-note')).toHaveTextContent('Skipped: C:\\App\\app.exe does not exist');
    rerender(<StepNote note={null} />);
    expect(screen.queryByTestId('step-note')).toBeNull();
  });
});
