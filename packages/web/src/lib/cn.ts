import { twMerge } from 'tailwind-merge';

/**
 * Joins class names, skipping falsy ones; a later Tailwind class wins over a conflicting earlier
 * one (`cn('w-full', 'w-40')` is `w-40`), so callers can override the kit's defaults.
 */
export function cn(...parts: (string | false | null | undefined)[]): string {
  return twMerge(parts.filter(Boolean).join(' '));
}
