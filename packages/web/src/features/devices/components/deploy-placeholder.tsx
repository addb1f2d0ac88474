import { Package } from 'lucide-react';
import { deviceMessages } from '@outpost/contract/messages';
import { Button } from '../../../components/ui/button';

/** The deploy dialog is another issue's: the button is there, disabled, and says why. */
export function DeployPackageButton({
  size = 'sm',
  label = 'Deploy Package',
  iconOnly,
}: {
  size?: 'sm' | 'md';
  label?: string;
  iconOnly?: boolean;
}) {
  return (
    <Button
      size={size}
      disabled
      disabledReason={deviceMessages.deploymentsLater}
      aria-label={iconOnly ? label : undefined}
      variant={iconOnly ? 'ghost' : 'secondary'}
      icon={<Package className={iconOnly ? 'size-4' : 'size-3.5'} />}
    >
      {!iconOnly && label}
    </Button>
  );
}
