// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { UnavailableActions } from './unavailable-actions';

describe('the actions cell of a device that cannot be acted on', () => {
  afterEach(cleanup);

  it('says Offline for an offline device', () => {
    render(<UnavailableActions status="offline" />);
    expect(screen.getByTitle(/back online/)).toHaveTextContent(/^Offline/);
  });

  it('says Agent error, not Offline, for a device in status Error', () => {
    render(<UnavailableActions status="error" />);
    const cell = screen.getByTitle(/reports an error/);
    expect(cell).toHaveTextContent(/^Agent error/);
    expect(cell).not.toHaveTextContent('Offline');
  });
});
