import { useEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

/** A small dropdown menu: a trigger and a panel that closes on outside click or Escape. */
export function Menu({
  trigger,
  children,
  align = 'right',
  label,
  className,
}: {
  trigger: (args: { isOpen: boolean }) => ReactNode;
  children: (close: () => void) => ReactNode;
  align?: 'left' | 'right';
  label: string;
  className?: string;
}) {
  const [isOpen, setIsOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!isOpen) {
      return;
    }
    const onDown = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) {
        setIsOpen(false);
      }
    };
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setIsOpen(false);
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [isOpen]);
  return (
    <div ref={ref} className={cn('relative', className)}>
      <button
        type="button"
        aria-haspopup="menu"
        aria-expanded={isOpen}
        onClick={() => setIsOpen((v) => !v)}
        className="rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        {/* The label leads the accessible name and the visible text follows, so what a speech
            user reads on the button is part of its name (WCAG 2.5.3 Label in Name). */}
        <span className="sr-only">{`${label} `}</span>
        {trigger({ isOpen })}
      </button>
      {isOpen && (
        <div
          role="menu"
          className={cn(
            'animate-toast-in absolute z-40 mt-2 min-w-56 origin-top rounded-lg bg-white p-1 shadow-lg ring-1 ring-slate-900/10 dark:bg-slate-800 dark:ring-white/10',
            align === 'right' ? 'right-0' : 'left-0',
          )}
        >
          {children(() => setIsOpen(false))}
        </div>
      )}
    </div>
  );
}

export function MenuItem({
  icon,
  children,
  onClick,
  disabled,
  isActive,
}: {
  icon?: ReactNode;
  children: ReactNode;
  onClick: () => void;
  disabled?: boolean;
  isActive?: boolean;
}) {
  return (
    <button
      type="button"
      role="menuitem"
      disabled={disabled}
      onClick={onClick}
      className={cn(
        'flex w-full items-center gap-2.5 rounded-md px-2.5 py-2 text-left text-sm text-slate-700 hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-50 disabled:hover:bg-transparent dark:text-slate-200 dark:hover:bg-slate-700/60',
        isActive && 'font-medium',
      )}
    >
      {icon && <span className="text-slate-400 dark:text-slate-500">{icon}</span>}
      {children}
    </button>
  );
}
