import { useId } from 'react';
import { Rocket } from 'lucide-react';
import { packageMessages as messages } from '@outpost/contract/messages';
import { Button } from '../../../components/ui/button';
import type { ButtonProps } from '../../../components/ui/button';

// The deploy dialog belongs to the deployments issue: until it lands, Deploy is shown unavailable
// and says why, rather than pretending to deploy (spec §2.2: Deploy opens the deploy dialog).
// aria-disabled (not disabled) keeps it focusable, so keyboard users can read the reason too.
export function DeployButton({
  label = 'Deploy',
  size = 'sm',
}: {
  label?: string;
  size?: ButtonProps['size'];
}) {
  const tipId = useId();
  return (
    <span className="group relative inline-flex">
      <Button
        size={size}
        aria-disabled="true"
        aria-describedby={tipId}
        className="cursor-not-allowed opacity-60"
        icon={<Rocket className="size-3.5" />}
        onClick={(e) => e.preventDefault()}
      >
        {label}
      </Button>
      <span
        id={tipId}
        role="tooltip"
        className="pointer-events-none absolute bottom-full left-1/2 z-20 mb-2 hidden w-max max-w-56 -translate-x-1/2 rounded-md bg-slate-900 px-2.5 py-1.5 text-xs font-medium text-white shadow-lg group-focus-within:block group-hover:block dark:bg-slate-700"
      >
        {messages.deploymentsLater}
      </span>
    </span>
  );
}
