import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { scriptsKey } from '../../../lib/api/scripts';
import { useUser } from '../../../lib/auth';
import { downloadJson, exportScripts, importScripts } from '../api/script-calls';

// The library's Export selected and Import (docs/product/scripts.md#import-and-export).
export function useScriptTransfer(selected: ReadonlySet<number>) {
  const user = useUser();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [pageError, setPageError] = useState<string | null>(null);
  const [isImporting, setImporting] = useState(false);
  const listState = { selected };

  const exportSelected = async () => {
    try {
      const doc = await exportScripts([...listState.selected]);
      downloadJson(doc, 'outpost-scripts.json');
    } catch (err) {
      setPageError(errorMessage(err, 'The scripts could not be exported'));
    }
  };

  const importFile = async (file: File | undefined) => {
    if (!file) {
      return;
    }
    setPageError(null);
    setImporting(true);
    try {
      let doc: unknown;
      try {
        doc = JSON.parse(await file.text());
      } catch {
        throw new Error(`${file.name} is not a JSON file`);
      }
      const result = await importScripts(doc);
      await queryClient.invalidateQueries({ queryKey: scriptsKey(user.tenant_id) });
      toast.show({
        type: 'success',
        title: `Imported ${result.imported.length} script${result.imported.length === 1 ? '' : 's'}`,
        message: result.imported.map((s) => s.name).join(', '),
      });
    } catch (err) {
      setPageError(errorMessage(err, 'The file could not be imported'));
    } finally {
      setImporting(false);
    }
  };

  return { exportSelected, importFile, isImporting, pageError, setPageError };
}
