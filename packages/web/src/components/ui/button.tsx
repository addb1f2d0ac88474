import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { forwardRef, useId } from 'react';
import { cn } from '../../lib/cn';
import { Spinner } from './spinner';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger' | 'success';
type Size = 'sm' | 'md';

const variants: Record<Variant, string> = {
  primary:
    'bg-indigo-600 text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-indigo-600 aria-disabled:bg-indigo-400',
  secondary:
    'bg-white text-slate-700 shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50 dark:bg-slate-800 dark:text-slate-200 dark:ring-slate-700 dark:hover:bg-slate-700',
  ghost:
    'text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white',
  danger:
    'bg-red-600 text-white shadow-sm hover:bg-red-500 focus-visible:outline-red-600 aria-disabled:bg-red-400',
  success: 'bg-emerald-600 text-white shadow-sm hover:bg-emerald-500 focus-visible:outline-emerald-600',
};
const sizes: Record<Size, string> = {
  sm: 'h-8 gap-1.5 px-2.5 text-xs',
  md: 'h-9 gap-2 px-3.5 text-sm',
};

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: Variant;
  size?: Size;
  icon?: ReactNode;
  isLoading?: boolean;
  /** Why the button is disabled: shown as its tooltip and read as its description. */
  disabledReason?: string;
};

/**
 * Disabled with a reason, the one pattern for unavailable actions: `aria-disabled` rather than
 * `disabled`, so the button stays focusable and a keyboard or screen-reader user can learn why
 * (the reason is its description and a tooltip on hover and focus); clicks do nothing.
 */

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  {
    variant = 'secondary',
    size = 'md',
    icon,
    isLoading,
    disabledReason,
    className,
    children,
    disabled,
    onClick,
    type = 'button',
    ...rest
  },
  ref,
) {
  const tipId = useId();
  const isOff = Boolean(disabled || isLoading);
  const reason = isOff ? disabledReason : undefined;
  const button = (
    <button
      ref={ref}
      type={type}
      aria-disabled={isOff || undefined}
      aria-describedby={reason ? tipId : undefined}
      onClick={(e) => {
        if (isOff) {
          e.preventDefault();
          return;
        }
        onClick?.(e);
      }}
      className={cn(
        'inline-flex shrink-0 items-center justify-center rounded-md font-medium whitespace-nowrap transition-colors',
        'focus-visible:outline-2 focus-visible:outline-offset-2 aria-disabled:cursor-not-allowed aria-disabled:opacity-60',
        variants[variant],
        sizes[size],
        className,
      )}
      {...rest}
    >
      {isLoading ? <Spinner className="size-4" /> : icon}
      {children}
    </button>
  );
  if (!reason) {
    return button;
  }
  return (
    <span className="group/reason relative inline-flex">
      {button}
      <span
        id={tipId}
        role="tooltip"
        className="pointer-events-none absolute bottom-full left-1/2 z-20 mb-2 hidden w-max max-w-56 -translate-x-1/2 rounded-md bg-slate-900 px-2.5 py-1.5 text-center text-xs font-medium whitespace-normal text-white shadow-lg group-focus-within/reason:block group-hover/reason:block dark:bg-slate-700"
      >
        {reason}
      </span>
    </span>
  );
});

export function IconButton({
  label,
  className,
  children,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { label: string }) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      className={cn(
        'inline-flex size-9 items-center justify-center rounded-md text-slate-500 transition-colors hover:bg-slate-100 hover:text-slate-700',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-50',
        'dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-200',
        className,
      )}
      {...rest}
    >
      {children}
    </button>
  );
}
