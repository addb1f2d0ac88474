import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { FileCode2, FileDown, FileUp, Plus } from 'lucide-react';
import { SCRIPT_LANGUAGE_LABELS, SCRIPT_LANGUAGES, SCRIPT_OS } from '@outpost/contract/scripts';
import type { ScriptLanguage, ScriptOs, ScriptSummary } from '@outpost/contract/scripts';
import { Alert } from '../../../components/ui/alert';
import { BulkActionBar } from '../../../components/ui/bulk-action-bar';
import { Button } from '../../../components/ui/button';
import { Card, PageHeader } from '../../../components/ui/card';
import { DataList } from '../../../components/ui/data-list';
import { FilterSelect, ListToolbar } from '../../../components/ui/list-toolbar';
import { Spinner } from '../../../components/ui/spinner';
import { RunScriptDialog } from '../../../components/scripts/run-script-dialog';
import { useScriptCategories, useScripts } from '../../../lib/api/scripts';
import { useUser } from '../../../lib/auth';
import { useListState } from '../../../lib/use-list-state';
import { OS_LABELS, scriptColumns } from '../components/script-columns';
import { useScriptTransfer } from '../lib/use-script-transfer';

// docs/product/scripts.md#the-library: search, filters, New script, Import, Export selected, Run.

export default function ScriptListPage() {
  const user = useUser();
  const listState = useListState<{ category: string; language: ScriptLanguage | ''; os: ScriptOs | '' }>({
    filters: { category: '', language: '', os: '' },
  });
  const params = {
    page: listState.page,
    limit: listState.pageSize,
    search: listState.searchTerm,
    ...listState.filters,
  };
  const list = useScripts(params);
  const categories = useScriptCategories();
  const [running, setRunning] = useState<ScriptSummary | null>(null);
  const canChange = user.site_access_type !== 'specific';

  useEffect(() => {
    document.title = 'Scripts · Outpost';
  }, []);

  const { exportSelected, importFile, isImporting, pageError, setPageError } = useScriptTransfer(
    listState.selected,
  );

  return (
    <>
      <ScriptListHeader
        canChange={canChange}
        onImport={(f) => void importFile(f)}
        isImporting={isImporting}
      />
      {pageError && (
        <Alert className="mb-4">
          <div className="flex items-start justify-between gap-3">
            <span>{pageError}</span>
            <button
              type="button"
              className="text-xs font-medium underline"
              onClick={() => setPageError(null)}
            >
              Dismiss
            </button>
          </div>
        </Alert>
      )}
      <Card>
        <ListToolbar
          search={listState.search}
          onSearchChange={listState.setSearch}
          searchPlaceholder="Search scripts..."
          hasActiveFilters={listState.hasActiveFilters}
          onClear={listState.clearFilters}
          filters={
            <>
              <FilterSelect
                label="Category"
                value={params.category}
                onChange={(v) => listState.setFilter('category', v)}
                options={[
                  { value: '', label: 'All categories' },
                  ...(categories.data ?? []).map((c) => ({ value: c.name, label: `${c.name} (${c.count})` })),
                ]}
              />
              <FilterSelect
                label="Language"
                value={params.language}
                onChange={(v) => listState.setFilter('language', v)}
                options={[
                  { value: '' as const, label: 'All languages' },
                  ...SCRIPT_LANGUAGES.map((l) => ({ value: l, label: SCRIPT_LANGUAGE_LABELS[l] })),
                ]}
              />
              <FilterSelect
                label="Target OS"
                value={params.os}
                onChange={(v) => listState.setFilter('os', v)}
                options={[
                  { value: '' as const, label: 'All OS' },
                  ...SCRIPT_OS.map((o) => ({ value: o, label: OS_LABELS[o] })),
                ]}
              />
              {list.isFetching && !list.isPending && <Spinner className="size-4 text-slate-400" />}
            </>
          }
        />
        <BulkActionBar
          count={listState.selected.size}
          noun={['script', 'scripts']}
          onClear={listState.clearSelection}
        >
          <Button size="sm" icon={<FileDown className="size-4" />} onClick={() => void exportSelected()}>
            Export selected
          </Button>
        </BulkActionBar>
        <DataList
          query={list}
          paging={listState}
          footer="list"
          errorFallback="The scripts could not be loaded"
          errorTitle="The scripts could not be loaded"
          loadingLabel="Loading scripts"
          empty={{
            icon: <FileCode2 className="size-6" />,
            title: 'No scripts found',
            message: listState.hasActiveFilters
              ? 'Try another search or filter.'
              : 'Write your first script or import a file.',
          }}
          columns={scriptColumns({ onRun: setRunning })}
          selection={{
            allLabel: 'Select all scripts on this page',
            rowLabel: (s) => `Select ${s.name}`,
            state: listState,
          }}
          rowAttributes={() => ({ 'data-testid': 'script-row' })}
        />
      </Card>
      <RunScriptDialog isOpen={running !== null} onClose={() => setRunning(null)} scriptId={running?.id} />
    </>
  );
}

function ScriptListHeader({
  canChange,
  onImport,
  isImporting,
}: {
  canChange: boolean;
  onImport: (file: File | undefined) => void;
  isImporting: boolean;
}) {
  const importInput = useRef<HTMLInputElement>(null);
  return (
    <PageHeader
      title="Scripts"
      description="Reusable scripts with typed parameters, run on chosen devices or groups."
      actions={
        canChange && (
          <>
            <input
              ref={importInput}
              type="file"
              accept=".json,application/json"
              className="sr-only"
              aria-label="Import scripts file"
              tabIndex={-1}
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = '';
                onImport(file);
              }}
            />
            <Button
              icon={<FileUp className="size-4" />}
              isLoading={isImporting}
              onClick={() => importInput.current?.click()}
            >
              Import
            </Button>
            <Link
              to="/scripts/new"
              className="inline-flex h-9 items-center gap-2 rounded-md bg-indigo-600 px-3.5 text-sm font-medium text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
            >
              <Plus className="size-4" aria-hidden />
              New script
            </Link>
          </>
        )
      }
    />
  );
}
