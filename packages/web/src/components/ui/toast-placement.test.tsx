// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Dialog } from './dialog';
import { ToastProvider, useToast } from './toast';

// Toasts never cover an open dialog: beside it when there is room, else
// behind its backdrop; in front again once it closes.

function Grab() {
  const toast = useToast();
  return (
    <button
      type="button"
      onClick={() => toast.show({ type: 'error', title: 'Deployment Failed', duration: 0 })}
    >
      Notify
    </button>
  );
}

function renderWith(isOpen: boolean) {
  return render(
    <ToastProvider>
      <Grab />
      <Dialog isOpen={isOpen} onClose={() => undefined} title="Deploy Package" size="xl">
        body
      </Dialog>
    </ToastProvider>,
  );
}

/** The dialog panel's right edge as the browser would lay it out. */
function layOut(windowWidth: number, panelRight: number) {
  vi.stubGlobal('innerWidth', windowWidth);
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    const right = this.getAttribute('role') === 'dialog' ? panelRight : 0;
    return { right, left: 0, top: 0, bottom: 0, width: right, height: 0, x: 0, y: 0 } as DOMRect;
  });
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const region = () => screen.getByTestId('toast-region');
const show = () => fireEvent.click(screen.getByRole('button', { name: 'Notify', hidden: true }));

describe('toasts and open dialogs', () => {
  it('sit in front, top right, while no dialog is open', () => {
    layOut(1440, 1168);
    renderWith(false);
    show();
    expect(region()).toHaveAttribute('data-placement', 'free');
    expect(region()).toHaveClass('z-[60]');
  });

  it('move beside an open dialog when there is room, clear of its right edge', () => {
    layOut(1440, 1168);
    const { rerender } = renderWith(false);
    show();
    rerender(
      <ToastProvider>
        <Grab />
        <Dialog isOpen onClose={() => undefined} title="Deploy Package" size="xl">
          body
        </Dialog>
      </ToastProvider>,
    );
    expect(region()).toHaveAttribute('data-placement', 'beside');
    expect(Number.parseFloat(region().style.left)).toBeGreaterThan(1168);
  });

  it('go behind the dialog (under its backdrop) when there is no room beside it', () => {
    layOut(390, 374);
    renderWith(true);
    show();
    expect(region()).toHaveAttribute('data-placement', 'behind');
    expect(region()).toHaveClass('z-40');
    expect(region()).not.toHaveClass('z-[60]');
    expect(screen.getByRole('alert')).toHaveTextContent('Deployment Failed');
  });
});
