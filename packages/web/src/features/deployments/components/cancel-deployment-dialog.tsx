import { deploymentMessages as messages } from '@outpost/contract/messages';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { errorMessage } from '../../../lib/api-client';
import { useCancelDeployment } from '../api/cancel-deployment';

// docs/product/deployments.md#job-statuses — Cancel is offered only while pending or running, after confirmation; on
// success the job is reloaded; docs/product/deployments.md#details — failure alerts 'Failed to cancel deployment' (the server's
// text preferred, e.g. when the job finished meanwhile).
export function CancelDeploymentDialog({
  job,
  onClose,
  onCancelled,
  onError,
}: {
  job: { id: number; name: string; total_devices: number } | null;
  onClose: () => void;
  onCancelled?: () => void;
  onError: (message: string) => void;
}) {
  const cancel = useCancelDeployment();
  const confirm = () => {
    if (!job) {
      return;
    }
    cancel.mutate(job.id, {
      onSuccess: () => {
        onClose();
        onCancelled?.();
      },
      onError: (err) => {
        onClose();
        onError(errorMessage(err, messages.cancelFailed));
      },
    });
  };
  return (
    <ConfirmDialog
      isOpen={job !== null}
      title="Cancel deployment?"
      message={
        job && (
          <p>
            <strong className="text-slate-900 dark:text-white">{job.name}</strong> stops: devices that have
            not started are skipped and running installations are stopped. Steps already finished are not
            undone.
          </p>
        )
      }
      confirmLabel="Cancel Deployment"
      isBusy={cancel.isPending}
      onConfirm={confirm}
      onCancel={onClose}
    />
  );
}
