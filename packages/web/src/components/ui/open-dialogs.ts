import { useEffect, useState, useSyncExternalStore } from 'react';

// The modal dialogs open right now, newest last, so the toasts can keep clear of them
// (docs/decisions/2026-11-26-toasts-clear-of-dialogs.md).

let panels: readonly HTMLElement[] = [];
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());

/** Registers an open dialog's panel; returns the function that unregisters it. */
export function registerOpenDialog(panel: HTMLElement): () => void {
  panels = [...panels, panel];
  notify();
  return () => {
    panels = panels.filter((p) => p !== panel);
    notify();
  };
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Where toasts may go while a dialog is open: beside it, or (no room) behind it. */
export type ToastPlacement = { kind: 'free' } | { kind: 'beside'; left: number } | { kind: 'behind' };

/** A toast needs this much width beside a dialog, else it goes behind the dialog's backdrop. */
export const MIN_TOAST_WIDTH = 240;
const GAP = 16;

export function placementBeside(rect: Pick<DOMRect, 'right'>, windowWidth: number): ToastPlacement {
  return windowWidth - rect.right - 2 * GAP >= MIN_TOAST_WIDTH
    ? { kind: 'beside', left: rect.right + GAP }
    : { kind: 'behind' };
}

/** The toasts' placement, following the newest open dialog and the window's size. */
export function useToastPlacement(): ToastPlacement {
  const top = useSyncExternalStore(
    subscribe,
    () => panels[panels.length - 1] ?? null,
    () => null,
  );
  const [measured, setMeasured] = useState<{ panel: HTMLElement; placement: ToastPlacement } | null>(null);
  useEffect(() => {
    if (!top) {
      return;
    }
    const measure = () =>
      setMeasured({ panel: top, placement: placementBeside(top.getBoundingClientRect(), window.innerWidth) });
    measure();
    window.addEventListener('resize', measure);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(top);
    return () => {
      window.removeEventListener('resize', measure);
      observer?.disconnect();
    };
  }, [top]);
  if (!top) {
    return { kind: 'free' };
  }
  // until the newest dialog is measured, out of its way
  return measured?.panel === top ? measured.placement : { kind: 'behind' };
}
