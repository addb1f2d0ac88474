import { Rocket } from 'lucide-react';
import { packageMessages as messages } from '@outpost/contract/messages';
import { Button } from '../../../components/ui/button';
import type { ButtonProps } from '../../../components/ui/button';

// The deploy dialog belongs to the deployments issue: until it lands, Deploy is shown unavailable
// and says why, rather than pretending to deploy (spec §2.2: Deploy opens the deploy dialog).
export function DeployButton({
  label = 'Deploy',
  size = 'sm',
}: {
  label?: string;
  size?: ButtonProps['size'];
}) {
  return (
    <Button
      size={size}
      disabled
      disabledReason={messages.deploymentsLater}
      icon={<Rocket className="size-3.5" />}
    >
      {label}
    </Button>
  );
}
