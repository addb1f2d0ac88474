import { Package } from 'lucide-react';
import { deviceMessages } from '@outpost/contract/messages';
import { Button } from '../../../components/ui/button';

/** The deploy dialog is another issue's: the button is there, honestly disabled, with why. */
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
    <span title={deviceMessages.deploymentsLater} className="inline-flex cursor-not-allowed">
      <Button
        size={size}
        disabled
        aria-label={`${label} (${deviceMessages.deploymentsLater})`}
        variant={iconOnly ? 'ghost' : 'secondary'}
        icon={<Package className={iconOnly ? 'size-4' : 'size-3.5'} />}
      >
        {!iconOnly && label}
      </Button>
    </span>
  );
}
