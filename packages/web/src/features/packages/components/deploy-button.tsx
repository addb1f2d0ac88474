import { Rocket } from 'lucide-react';
import { packageMessages } from '@outpost/contract/messages';
import { Button } from '../../../components/ui/button';
import type { ButtonProps } from '../../../components/ui/button';
import { useDeployDialog } from '../../../lib/deploy-dialog';

// docs/product/packages.md#package-list — Deploy (per row or bulk) opens the deploy dialog with the chosen
// packages preselected; docs/product/packages.md#validation — with nothing selected: 'Please select packages first'.
export function DeployButton({
  packages,
  onNothingSelected,
  onDeployed,
  label = 'Deploy',
  size = 'sm',
  variant,
  disabledReason,
}: {
  packages: readonly { id: number; name: string }[];
  onNothingSelected?: (message: string) => void;
  onDeployed?: () => void;
  label?: string;
  size?: ButtonProps['size'];
  variant?: ButtonProps['variant'];
  /** set to keep the button disabled with this reason (e.g. unsaved changes in the builder) */
  disabledReason?: string;
}) {
  const { openDeployDialog } = useDeployDialog();
  const open = () => {
    if (packages.length === 0) {
      onNothingSelected?.(packageMessages.selectPackagesFirst);
      return;
    }
    openDeployDialog({ packages: packages.map((p) => ({ id: p.id, name: p.name })), onSuccess: onDeployed });
  };
  return (
    <Button
      size={size}
      variant={variant}
      onClick={open}
      disabled={disabledReason !== undefined}
      disabledReason={disabledReason}
      aria-label={
        packages.length === 1 && packages[0] && label === 'Deploy' ? `Deploy ${packages[0].name}` : undefined
      }
      icon={<Rocket className="size-3.5" />}
    >
      {label}
    </Button>
  );
}
