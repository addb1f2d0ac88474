import { useState } from 'react';
import { FileCode2 } from 'lucide-react';
import { RunScriptDialog } from '../../../components/scripts/run-script-dialog';
import { Button } from '../../../components/ui/button';

// "Run script" on the selected devices or on one device (docs/product/scripts.md#running-a-script):
// the shared Run dialog with those devices, the script chosen in it.
export function RunScriptButton({
  devices,
  size = 'sm',
}: {
  devices: readonly { id: number; hostname: string | null; device_guid: string }[];
  size?: 'sm' | 'md';
}) {
  const [isOpen, setOpen] = useState(false);
  return (
    <>
      <Button
        size={size}
        icon={<FileCode2 className={size === 'sm' ? 'size-3.5' : 'size-4'} />}
        onClick={() => setOpen(true)}
        disabled={devices.length === 0}
      >
        Run script
      </Button>
      <RunScriptDialog
        isOpen={isOpen}
        onClose={() => setOpen(false)}
        devices={devices.map((d) => ({ id: d.id, hostname: d.hostname ?? d.device_guid }))}
      />
    </>
  );
}
