import type { HTMLAttributes, TdHTMLAttributes, ThHTMLAttributes } from 'react';
import { cn } from '../../lib/cn';

// Tables fit their card from 1280 px up; on narrower screens they scroll inside the card and the
// column marked `sticky` (the one naming the row) stays in view.
// Its background is opaque (content scrolls beneath it) and mixes the same colours the row's
// translucent hover and selection backgrounds give, so the row still reads as one.
const stickyCell = cn(
  'sticky left-0 z-[1] bg-white transition-colors dark:bg-slate-900',
  'group-hover:bg-slate-50 dark:group-hover:bg-[color-mix(in_oklab,var(--color-slate-800)_40%,var(--color-slate-900))]',
  'group-data-[selected=true]:bg-[color-mix(in_oklab,var(--color-indigo-50)_60%,white)]',
  'dark:group-data-[selected=true]:bg-[color-mix(in_oklab,var(--color-indigo-500)_10%,var(--color-slate-900))]',
);

/**
 * `cards`: on phones each row is a card (index.css); give its cells a `data-label` (the column's
 * title) to caption them, and the actions cell `data-label="Actions"`.
 * The scroller is `relative` so that visually hidden labels in far cells stay inside it.
 */
export function Table({ className, cards, ...rest }: HTMLAttributes<HTMLTableElement> & { cards?: boolean }) {
  return (
    <div className="relative overflow-x-auto overscroll-x-contain">
      <table
        data-cards={cards || undefined}
        className={cn('min-w-full divide-y divide-slate-200 text-sm dark:divide-slate-800', className)}
        {...rest}
      />
    </div>
  );
}
export function THead(props: HTMLAttributes<HTMLTableSectionElement>) {
  return <thead className="bg-slate-50/80 dark:bg-slate-900/60" {...props} />;
}
export function TBody(props: HTMLAttributes<HTMLTableSectionElement>) {
  return <tbody className="divide-y divide-slate-100 dark:divide-slate-800/80" {...props} />;
}
export function Th({
  className,
  sticky,
  ...rest
}: ThHTMLAttributes<HTMLTableCellElement> & { sticky?: boolean }) {
  return (
    <th
      scope="col"
      className={cn(
        // Headers never wrap: a column is at least as wide as its title; tables scroll.
        'px-3 whitespace-nowrap py-2.5 text-left align-bottom text-xs font-semibold tracking-wide text-slate-500 uppercase first:pl-4 last:pr-4 dark:text-slate-400',
        sticky && 'sticky left-0 z-[1] bg-slate-50 dark:bg-slate-900',
        className,
      )}
      {...rest}
    />
  );
}
export function Td({
  className,
  sticky,
  ...rest
}: TdHTMLAttributes<HTMLTableCellElement> & { sticky?: boolean }) {
  return (
    <td
      className={cn(
        'px-3 py-3 align-middle text-slate-700 first:pl-4 last:pr-4 dark:text-slate-300',
        sticky && stickyCell,
        className,
      )}
      {...rest}
    />
  );
}
export function Tr({
  className,
  isSelected,
  ...rest
}: HTMLAttributes<HTMLTableRowElement> & { isSelected?: boolean }) {
  return (
    <tr
      data-selected={isSelected || undefined}
      className={cn(
        'group transition-colors hover:bg-slate-50 dark:hover:bg-slate-800/40',
        isSelected && 'bg-indigo-50/60 hover:bg-indigo-50 dark:bg-indigo-500/10 dark:hover:bg-indigo-500/10',
        className,
      )}
      {...rest}
    />
  );
}
