import { Rocket } from 'lucide-react';
import { packageMessages as messages } from '@outpost/contract/messages';
import { Button } from '../../../components/ui/button';
import type { ButtonProps } from '../../../components/ui/button';

// The deploy dialog belongs to the deployments issue: until it lands, Deploy is shown disabled
// and says why, rather than pretending to deploy (spec §2.2: Deploy opens the deploy dialog).
export function DeployButton({
  label = 'Deploy',
  size = 'sm',
}: {
  label?: string;
  size?: ButtonProps['size'];
}) {
  return (
    <span
      className="group relative inline-flex"
      tabIndex={0}
      aria-label={`${label}: ${messages.deploymentsLater}`}
    >
      <Button size={size} disabled icon={<Rocket className="size-3.5" />} aria-hidden tabIndex={-1}>
        {label}
      </Button>
      <span
        role="tooltip"
        className="pointer-events-none absolute bottom-full left-1/2 z-20 mb-2 hidden w-max max-w-56 -translate-x-1/2 rounded-md bg-slate-900 px-2.5 py-1.5 text-xs font-medium text-white shadow-lg group-hover:block group-focus:block dark:bg-slate-700"
      >
        {messages.deploymentsLater}
      </span>
    </span>
  );
}
