import { createContext, useCallback, useContext, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { AlertTriangle, CheckCircle2, Info, X, XCircle } from 'lucide-react';
import { LIVE_NOTIFICATIONS_KEPT, TOAST_DURATION_MS, TOAST_EXIT_MS } from '@outpost/contract/limits';
import { cn } from '../../lib/cn';
import { useToastPlacement } from './open-dialogs';

// docs/product/live-updates.md#toasts — type, title, message, duration, optional action; fading out over 300 ms
// (docs/product/live-updates.md#toasts). How long a toast stays unless it says otherwise depends on its type (#toasts):
// info and warning 4000 ms, success 5000 ms, error 6000 ms. A duration of 0 keeps it until dismissed.

/** How long a toast stays: its own duration, else its type's. */
export function toastDuration(toast: Pick<ToastInput, 'type' | 'duration'>): number {
  return toast.duration ?? TOAST_DURATION_MS[toast.type];
}

export type ToastType = 'success' | 'error' | 'warning' | 'info';
export type ToastInput = {
  type: ToastType;
  title: string;
  message?: string;
  duration?: number;
  action?: { label: string; onClick: () => void };
};
type ToastItem = ToastInput & { id: number; isLeaving: boolean };

type ToastApi = { show: (toast: ToastInput) => number; dismiss: (id: number) => void };
const ToastContext = createContext<ToastApi | null>(null);

const MAX_VISIBLE = LIVE_NOTIFICATIONS_KEPT;
// requestAnimationFrame, or a timer where there is none (a page without rendering)
const nextFrame = (f: () => void): number =>
  typeof requestAnimationFrame === 'function' ? requestAnimationFrame(f) : Number(setTimeout(f, 16));

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const nextId = useRef(1);

  // The first toast of a frame is shown at once; those that follow within the frame are added
  // together at the next, only the newest MAX_VISIBLE of them: a storm of live events (a thousand
  // devices signing in a second) is a render or two a frame, and toasts the stack would drop at
  // once get no timers (bench/browser-storm.ts).
  const frames = useRef<{ queued: ToastItem[]; frame: number | null }>({ queued: [], frame: null });

  const dismiss = useCallback((id: number) => {
    frames.current.queued = frames.current.queued.filter((t) => t.id !== id);
    // an id the stack no longer holds changes nothing (and renders nothing)
    setToasts((list) =>
      list.some((t) => t.id === id) ? list.map((t) => (t.id === id ? { ...t, isLeaving: true } : t)) : list,
    );
    setTimeout(
      () => setToasts((list) => (list.some((t) => t.id === id) ? list.filter((t) => t.id !== id) : list)),
      TOAST_EXIT_MS,
    );
  }, []);

  const add = useCallback(
    (items: ToastItem[]) => {
      setToasts((list) => [...list, ...items].slice(-MAX_VISIBLE));
      for (const t of items) {
        const duration = toastDuration(t);
        if (duration > 0) {
          setTimeout(() => dismiss(t.id), duration);
        }
      }
    },
    [dismiss],
  );
  const show = useCallback(
    (toast: ToastInput) => {
      const item = { ...toast, id: nextId.current++, isLeaving: false };
      const pump = frames.current;
      const flush = () => {
        const added = pump.queued.slice(-MAX_VISIBLE);
        pump.queued = [];
        // the next frame again takes what arrived meanwhile, until a frame passes without any
        pump.frame = added.length === 0 ? null : nextFrame(flush);
        if (added.length > 0) {
          add(added);
        }
      };
      if (pump.frame === null) {
        // the first toast of a frame is shown at once; more within the frame wait for the next
        add([item]);
        pump.frame = nextFrame(flush);
      } else {
        pump.queued.push(item);
      }
      return item.id;
    },
    [add],
  );

  const api = useMemo(() => ({ show, dismiss }), [show, dismiss]);
  // Toasts never cover an open dialog: beside it when there is room, else behind its backdrop
  // (docs/decisions/2026-11-26-toasts-clear-of-dialogs.md).
  const placement = useToastPlacement();
  return (
    <ToastContext.Provider value={api}>
      {children}
      <div
        aria-live="polite"
        data-testid="toast-region"
        data-placement={placement.kind}
        style={placement.kind === 'beside' ? { left: placement.left } : undefined}
        className={cn(
          'pointer-events-none fixed inset-x-0 top-0 flex flex-col items-center gap-2 p-4 sm:items-end sm:pt-20',
          placement.kind === 'behind' ? 'z-40' : 'z-[60]',
          placement.kind === 'beside' && 'pl-0',
        )}
      >
        {toasts.map((t) => (
          <ToastView key={t.id} toast={t} onDismiss={() => dismiss(t.id)} />
        ))}
      </div>
    </ToastContext.Provider>
  );
}

const icons = {
  success: <CheckCircle2 className="size-5 text-emerald-500" />,
  error: <XCircle className="size-5 text-red-500" />,
  warning: <AlertTriangle className="size-5 text-amber-500" />,
  info: <Info className="size-5 text-sky-500" />,
};

function ToastView({ toast, onDismiss }: { toast: ToastItem; onDismiss: () => void }) {
  return (
    <div
      role={toast.type === 'error' ? 'alert' : 'status'}
      data-toast-type={toast.type}
      className={cn(
        'animate-toast-in pointer-events-auto w-full max-w-sm rounded-lg bg-white p-4 shadow-lg ring-1 ring-slate-900/10 transition-all duration-300 dark:bg-slate-800 dark:ring-white/10',
        toast.isLeaving && 'translate-x-2 opacity-0',
      )}
    >
      <div className="flex items-start gap-3">
        <div className="shrink-0">{icons[toast.type]}</div>
        <div className="min-w-0 flex-1">
          <p className="text-sm font-semibold text-slate-900 dark:text-white">{toast.title}</p>
          {toast.message && (
            <p className="mt-0.5 text-sm break-words text-slate-600 dark:text-slate-300">{toast.message}</p>
          )}
          {toast.action && (
            <button
              type="button"
              onClick={() => {
                toast.action?.onClick();
                onDismiss();
              }}
              className="mt-2 text-sm font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-300 dark:hover:text-indigo-200"
            >
              {toast.action.label}
            </button>
          )}
        </div>
        <button
          type="button"
          aria-label="Dismiss"
          onClick={onDismiss}
          className="shrink-0 rounded text-slate-400 hover:text-slate-600 dark:hover:text-slate-200"
        >
          <X className="size-4" />
        </button>
      </div>
    </div>
  );
}

export function useToast(): ToastApi {
  const ctx = useContext(ToastContext);
  if (!ctx) {
    throw new Error('useToast must be used inside <ToastProvider>');
  }
  return ctx;
}
