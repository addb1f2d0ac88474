import { cn } from '../../../lib/cn';

/** A policy's on/off switch in a list row or a header (docs/product/device-sets.md#automation-policies). */
export function EnabledToggle({
  name,
  isEnabled,
  isDisabled,
  title,
  onChange,
}: {
  name: string;
  isEnabled: boolean;
  isDisabled?: boolean;
  title?: string;
  onChange: (enabled: boolean) => void;
}) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={isEnabled}
      aria-label={`${name} enabled`}
      title={title}
      disabled={isDisabled}
      onClick={() => onChange(!isEnabled)}
      className={cn(
        'relative inline-flex h-5 w-9 shrink-0 cursor-pointer rounded-full border-2 border-transparent transition-colors',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:opacity-50',
        isEnabled ? 'bg-indigo-600' : 'bg-slate-300 dark:bg-slate-700',
      )}
    >
      <span
        aria-hidden
        className={cn(
          'pointer-events-none inline-block size-4 rounded-full bg-white shadow ring-0 transition-transform',
          isEnabled ? 'translate-x-4' : 'translate-x-0',
        )}
      />
    </button>
  );
}
