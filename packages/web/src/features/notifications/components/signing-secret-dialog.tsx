import type { ChannelCreated } from '@outpost/contract/notification-channels';
import { Button } from '../../../components/ui/button';
import { CopyBlock } from '../../../components/ui/copy-block';
import { Dialog } from '../../../components/ui/dialog';

/** A new webhook's generated signing secret, shown once (docs/product/monitoring.md#notification-channels). */
export function SigningSecretDialog({
  created,
  onClose,
}: {
  created: ChannelCreated | null;
  onClose: () => void;
}) {
  return (
    <Dialog
      isOpen={created !== null}
      onClose={onClose}
      title="Signing secret"
      size="md"
      footer={
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      }
    >
      <div className="space-y-3 text-sm text-slate-600 dark:text-slate-300">
        <p>
          Every request to <strong>{created?.name}</strong> carries{' '}
          <code className="font-mono">X-Outpost-Signature</code>, the HMAC-SHA256 of its body with this
          secret. Copy it now: it is not shown again.
        </p>
        <CopyBlock text={created?.signing_secret ?? ''} isWrapped />
      </div>
    </Dialog>
  );
}
