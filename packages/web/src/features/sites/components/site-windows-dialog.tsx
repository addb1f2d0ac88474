import { useState } from 'react';
import { MaintenanceWindowsPanel } from '../../../components/maintenance-windows/maintenance-windows-panel';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import type { Site } from '../api/sites';

// docs/product/rollouts.md#maintenance-windows: a site's maintenance windows, from its row on the
// Sites page; administrators (of that site) add, change and delete them.
export function SiteWindowsDialog({
  site,
  canEdit,
  onClose,
}: {
  site: Site;
  canEdit: boolean;
  onClose: () => void;
}) {
  // while a window's own dialog is open, Escape and the backdrop belong to it
  const [isEditing, setIsEditing] = useState(false);
  return (
    <Dialog
      isOpen
      onClose={onClose}
      size="lg"
      title={`Maintenance windows · ${site.site_name}`}
      description="When deployments that run only inside maintenance windows may start this site's devices."
      isDismissDisabled={isEditing}
      footer={<Button onClick={onClose}>Close</Button>}
    >
      <MaintenanceWindowsPanel
        owner={{ site_id: site.id }}
        timezone={site.timezone ?? 'UTC'}
        canEdit={canEdit}
        onEditingChange={setIsEditing}
      />
    </Dialog>
  );
}
