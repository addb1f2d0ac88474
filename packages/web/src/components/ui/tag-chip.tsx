import type { ReactNode } from 'react';
import { X } from 'lucide-react';
import type { TagColor } from '@outpost/contract/tags';
import { cn } from '../../lib/cn';

// A tag as a coloured chip (docs/product/device-sets.md#tags). Each palette colour has a light
// and a dark style whose text keeps at least 4.5:1 contrast on its background.

export const tagColorClasses: Record<TagColor, string> = {
  slate:
    'bg-slate-100 text-slate-700 ring-slate-500/25 dark:bg-slate-700/60 dark:text-slate-100 dark:ring-slate-400/30',
  red: 'bg-red-50 text-red-800 ring-red-600/25 dark:bg-red-500/15 dark:text-red-200 dark:ring-red-400/30',
  orange:
    'bg-orange-50 text-orange-800 ring-orange-600/25 dark:bg-orange-500/15 dark:text-orange-200 dark:ring-orange-400/30',
  amber:
    'bg-amber-50 text-amber-800 ring-amber-600/30 dark:bg-amber-500/15 dark:text-amber-200 dark:ring-amber-400/30',
  green:
    'bg-emerald-50 text-emerald-800 ring-emerald-600/25 dark:bg-emerald-500/15 dark:text-emerald-200 dark:ring-emerald-400/30',
  teal: 'bg-teal-50 text-teal-800 ring-teal-600/25 dark:bg-teal-500/15 dark:text-teal-200 dark:ring-teal-400/30',
  blue: 'bg-sky-50 text-sky-800 ring-sky-600/25 dark:bg-sky-500/15 dark:text-sky-200 dark:ring-sky-400/30',
  indigo:
    'bg-indigo-50 text-indigo-800 ring-indigo-600/25 dark:bg-indigo-500/20 dark:text-indigo-200 dark:ring-indigo-400/30',
  violet:
    'bg-violet-50 text-violet-800 ring-violet-600/25 dark:bg-violet-500/20 dark:text-violet-200 dark:ring-violet-400/30',
  pink: 'bg-pink-50 text-pink-800 ring-pink-600/25 dark:bg-pink-500/15 dark:text-pink-200 dark:ring-pink-400/30',
};

/** The swatch of a colour (the colour pickers). */
export const tagSwatchClasses: Record<TagColor, string> = {
  slate: 'bg-slate-500',
  red: 'bg-red-500',
  orange: 'bg-orange-500',
  amber: 'bg-amber-500',
  green: 'bg-emerald-500',
  teal: 'bg-teal-500',
  blue: 'bg-sky-500',
  indigo: 'bg-indigo-500',
  violet: 'bg-violet-500',
  pink: 'bg-pink-500',
};

export function TagChip({
  name,
  color,
  onRemove,
  className,
  children,
}: {
  name: string;
  color: TagColor;
  /** shows a remove button labelled "Remove tag {name}" */
  onRemove?: () => void;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <span
      data-tag={name}
      className={cn(
        'inline-flex max-w-48 items-center gap-1 rounded-md px-1.5 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset',
        tagColorClasses[color],
        className,
      )}
    >
      <span className="truncate">{name}</span>
      {children}
      {onRemove && (
        <button
          type="button"
          aria-label={`Remove tag ${name}`}
          onClick={onRemove}
          className="-mr-0.5 rounded-sm opacity-70 hover:opacity-100 focus-visible:outline-2 focus-visible:outline-current"
        >
          <X className="size-3" />
        </button>
      )}
    </span>
  );
}

/** A row of chips, the first `max` shown and the rest counted ("+2"). */
export function TagList({
  tags,
  max = 3,
}: {
  tags: { id: number; name: string; color: TagColor }[];
  max?: number;
}) {
  if (tags.length === 0) {
    return null;
  }
  const shown = tags.slice(0, max);
  const rest = tags.slice(max);
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      {shown.map((t) => (
        <TagChip key={t.id} name={t.name} color={t.color} />
      ))}
      {rest.length > 0 && (
        <span
          className="text-xs font-medium text-slate-500 dark:text-slate-400"
          title={rest.map((t) => t.name).join(', ')}
        >
          +{rest.length}
        </span>
      )}
    </span>
  );
}

/** Colour swatches to choose a tag's colour from (a radio group). */
export function TagColorPicker({
  value,
  onChange,
  colors,
  label = 'Colour',
}: {
  value: TagColor;
  onChange: (c: TagColor) => void;
  colors: readonly TagColor[];
  label?: string;
}) {
  return (
    <div role="radiogroup" aria-label={label} className="flex flex-wrap gap-1.5">
      {colors.map((c) => (
        <button
          key={c}
          type="button"
          role="radio"
          aria-checked={value === c}
          aria-label={c}
          title={c}
          onClick={() => onChange(c)}
          className={cn(
            'size-6 rounded-full ring-offset-2 ring-offset-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 dark:ring-offset-slate-900',
            tagSwatchClasses[c],
            value === c && 'ring-2 ring-slate-900 dark:ring-white',
          )}
        />
      ))}
    </div>
  );
}
