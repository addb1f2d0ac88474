import { useState } from 'react';
import { Download } from 'lucide-react';
import { errorMessage } from '../../lib/api-client';
import type { Query } from '../../lib/api-client';
import { downloadCsv } from '../../lib/download';
import { Button } from './button';
import { useToast } from './toast';

// "Export CSV" on a list (docs/product/device-sets.md#exports): downloads what the list shows with
// its current filters, every page of it.

export function ExportButton({
  path,
  query,
  filename,
  label = 'Export CSV',
}: {
  /** the list's API path, under /api */
  path: string;
  /** the list's filters (page and page size play no part) */
  query?: Query;
  /** the file's name should the server give none */
  filename: string;
  label?: string;
}) {
  const toast = useToast();
  const [isBusy, setIsBusy] = useState(false);
  const onClick = async () => {
    setIsBusy(true);
    try {
      await downloadCsv(path, query, filename);
    } catch (err) {
      toast.show({ type: 'error', title: 'Export failed', message: errorMessage(err, 'The export failed.') });
    } finally {
      setIsBusy(false);
    }
  };
  return (
    <Button
      variant="secondary"
      icon={<Download className="size-4" />}
      isLoading={isBusy}
      onClick={() => void onClick()}
    >
      {label}
    </Button>
  );
}
