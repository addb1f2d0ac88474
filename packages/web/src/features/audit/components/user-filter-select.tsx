import { useEffect, useId, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { Check, ChevronDown } from 'lucide-react';
import type { TenantUser } from '../../../lib/api/users';
import { cn } from '../../../lib/cn';

type Option = { value: string; label: string; sub?: string };

/** docs/product/activity.md#audit-log — All Users, then the tenant's users by name (else email), sorted, with the email beneath. */
export function userFilterOptions(users: TenantUser[]): Option[] {
  return [
    { value: '', label: 'All Users' },
    ...users
      .map((u) => ({ value: String(u.id), label: u.name || u.email, sub: u.name ? u.email : undefined }))
      .sort((a, b) => a.label.localeCompare(b.label)),
  ];
}

/**
 * The audit log's User filter: a select whose options carry a second line (a native select
 * cannot). A button opening a listbox (ARIA listbox pattern): arrows, Home and End move, Enter
 * or Space chooses, Escape or a click outside closes.
 */
export function UserFilterSelect({
  id,
  users,
  value,
  onChange,
}: {
  id: string;
  users: TenantUser[];
  value: string;
  onChange: (value: string) => void;
}) {
  const options = userFilterOptions(users);
  const selectedIndex = Math.max(
    0,
    options.findIndex((o) => o.value === value),
  );
  const [isOpen, setIsOpen] = useState(false);
  const [active, setActive] = useState(selectedIndex);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const listId = useId();
  const optionId = (i: number) => `${listId}-${i}`;

  useEffect(() => {
    if (!isOpen) {
      return;
    }
    listRef.current?.focus();
    const onDown = (e: MouseEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) {
        setIsOpen(false);
      }
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [isOpen]);

  useEffect(() => {
    if (isOpen) {
      document.getElementById(optionId(active))?.scrollIntoView?.({ block: 'nearest' });
    }
    // optionId is derived from a stable id
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active, isOpen]);

  const open = () => {
    setActive(selectedIndex);
    setIsOpen(true);
  };
  const choose = (i: number) => {
    onChange(options[i]!.value);
    setIsOpen(false);
    buttonRef.current?.focus();
  };
  const onListKey = (e: KeyboardEvent) => {
    const last = options.length - 1;
    const moves: Record<string, number> = {
      ArrowDown: Math.min(last, active + 1),
      ArrowUp: Math.max(0, active - 1),
      Home: 0,
      End: last,
    };
    if (e.key in moves) {
      e.preventDefault();
      setActive(moves[e.key]!);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      choose(active);
    } else if (e.key === 'Escape' || e.key === 'Tab') {
      e.preventDefault();
      setIsOpen(false);
      buttonRef.current?.focus();
    }
  };
  const selected = options[selectedIndex]!;

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        id={id}
        type="button"
        // The visible choice is part of the name (WCAG 2.5.3 Label in Name).
        aria-label={`User: ${selected.label}`}
        aria-haspopup="listbox"
        aria-expanded={isOpen}
        aria-controls={isOpen ? listId : undefined}
        onClick={() => (isOpen ? setIsOpen(false) : open())}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            open();
          }
        }}
        className="flex h-9 w-full items-center justify-between gap-2 rounded-md bg-white px-3 text-left text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-indigo-600 focus:outline-none dark:bg-slate-900 dark:text-slate-100 dark:ring-slate-700 dark:focus:ring-indigo-500"
      >
        <span className="truncate">{selected.label}</span>
        <ChevronDown className="size-4 shrink-0 text-slate-400" aria-hidden />
      </button>
      {isOpen && (
        <ul
          ref={listRef}
          id={listId}
          role="listbox"
          tabIndex={-1}
          aria-label="Users"
          aria-activedescendant={optionId(active)}
          onKeyDown={onListKey}
          className="animate-toast-in absolute z-30 mt-1 max-h-72 w-full min-w-64 overflow-y-auto rounded-lg bg-white p-1 shadow-lg ring-1 ring-slate-900/10 focus:outline-none dark:bg-slate-800 dark:ring-white/10"
        >
          {options.map((o, i) => (
            <li
              key={o.value || 'all'}
              id={optionId(i)}
              role="option"
              aria-selected={i === selectedIndex}
              onMouseEnter={() => setActive(i)}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(i)}
              className={cn(
                'flex cursor-pointer items-center gap-2 rounded-md px-2.5 py-1.5',
                i === active && 'bg-slate-100 dark:bg-slate-700/60',
              )}
            >
              <span className="min-w-0 flex-1">
                <span className="block truncate text-sm text-slate-900 dark:text-white">{o.label}</span>
                {o.sub && (
                  <span className="block truncate text-xs text-slate-500 dark:text-slate-400">{o.sub}</span>
                )}
              </span>
              {i === selectedIndex && (
                <Check className="size-4 shrink-0 text-indigo-600 dark:text-indigo-400" aria-hidden />
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
