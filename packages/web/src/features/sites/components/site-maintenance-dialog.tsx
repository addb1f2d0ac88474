import { MaintenanceBanner } from '../../../components/alerts/maintenance-banner';
import { MaintenanceDialog } from '../../../components/alerts/maintenance-dialog';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useMaintenance, useSetMaintenance } from '../../../lib/api/alerts';
import type { Site } from '../api/sites';

// docs/product/monitoring.md#maintenance-mode — a site's maintenance (administrators): the same
// dialog as a device's, or, while the site is in maintenance, its banner with End maintenance.

export function SiteMaintenanceDialog({ site, onClose }: { site: Site | null; onClose: () => void }) {
  const target = site ? { kind: 'sites' as const, id: site.id } : null;
  const maintenance = useMaintenance(target);
  const end = useSetMaintenance();
  const toast = useToast();
  if (!site || !target) {
    return null;
  }
  if (maintenance.isPending) {
    return (
      <Dialog isOpen onClose={onClose} title={`Maintenance mode: ${site.site_name}`} size="sm">
        <div className="flex justify-center py-6">
          <Spinner className="size-5 text-slate-400" label="Loading maintenance" />
        </div>
      </Dialog>
    );
  }
  const m = maintenance.data;
  const siteTarget = target;
  const siteName = site.site_name;
  if (!m) {
    return <MaintenanceDialog target={target} name={site.site_name} onClose={onClose} />;
  }
  async function endIt() {
    try {
      await end.mutateAsync({ target: siteTarget, body: null });
      toast.show({
        type: 'success',
        title: 'Maintenance ended',
        message: `${siteName}: alerts are sent again.`,
      });
      onClose();
    } catch (err) {
      toast.show({ type: 'error', title: 'Could not end maintenance', message: errorMessage(err, '') });
    }
  }
  return (
    <Dialog
      isOpen
      onClose={onClose}
      title={`Maintenance mode: ${site.site_name}`}
      size="md"
      footer={<Button onClick={onClose}>Close</Button>}
    >
      <MaintenanceBanner maintenance={m} onEnd={() => void endIt()} isEnding={end.isPending} />
    </Dialog>
  );
}
