// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider, toastDuration, useToast } from './toast';
import type { ToastInput } from './toast';

describe('toast durations (docs/product/live-updates.md#toasts)', () => {
  it('depends on the type unless the toast sets its own', () => {
    expect(toastDuration({ type: 'info' })).toBe(4000);
    expect(toastDuration({ type: 'warning' })).toBe(4000);
    expect(toastDuration({ type: 'success' })).toBe(5000);
    expect(toastDuration({ type: 'error' })).toBe(6000);
    expect(toastDuration({ type: 'error', duration: 0 })).toBe(0);
    expect(toastDuration({ type: 'info', duration: 1234 })).toBe(1234);
  });

  describe('in the provider', () => {
    beforeEach(() => vi.useFakeTimers());
    afterEach(() => {
      cleanup();
      vi.useRealTimers();
    });

    function Show({ toast }: { toast: ToastInput }) {
      const api = useToast();
      return (
        <button type="button" onClick={() => api.show(toast)}>
          show
        </button>
      );
    }

    it.each([
      ['info', 4000],
      ['warning', 4000],
      ['success', 5000],
      ['error', 6000],
    ] as const)('removes a %s toast after %i ms (and its 300 ms exit)', (type, ms) => {
      render(
        <ToastProvider>
          <Show toast={{ type, title: `A ${type}` }} />
        </ToastProvider>,
      );
      act(() => {
        screen.getByRole('button', { name: 'show' }).click();
      });
      expect(screen.getByText(`A ${type}`)).toBeInTheDocument();
      act(() => {
        vi.advanceTimersByTime(ms - 1);
      });
      expect(screen.getByText(`A ${type}`)).toBeInTheDocument();
      act(() => {
        vi.advanceTimersByTime(1 + 300);
      });
      expect(screen.queryByText(`A ${type}`)).not.toBeInTheDocument();
    });
  });
});
