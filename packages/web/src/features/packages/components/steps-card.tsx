import { FolderOpen, ListPlus, Plus } from 'lucide-react';
import { packageMessages as messages } from '@outpost/contract/messages';
import { DEFAULT_WORKING_DIRECTORY } from '@outpost/contract/packages';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import type { StepDraft } from '../lib/builder-state';
import { StepList } from './step-list';

// docs/product/packages.md#builder — the builder's second part, the ordered installation steps. A step is
// not offered beyond MAX_STEPS_PER_PACKAGE (addBlocker says why; SECURITY.md R2-6).

export function StepsCard({
  steps,
  isLocked,
  addBlocker,
  onAdd,
  onMove,
  onEdit,
  onDelete,
}: {
  steps: StepDraft[];
  /** saving, or the package is read-only to this user */
  isLocked: boolean;
  /** why no step can be added, or null */
  addBlocker: string | null;
  onAdd: () => void;
  onMove: (from: number, to: number) => void;
  onEdit: (index: number) => void;
  onDelete: (index: number) => void;
}) {
  return (
    <Card>
      <CardHeader
        title={
          <span className="flex items-center gap-2">
            <Badge tone="indigo">Step 2 of 2</Badge> Installation steps
          </span>
        }
        description="Steps run one after another, in this order. Drag a handle, or focus it and use Space and the arrow keys, to reorder."
        actions={
          <Button
            variant="primary"
            size="sm"
            icon={<Plus className="size-4" />}
            onClick={onAdd}
            disabled={isLocked || addBlocker !== null}
            disabledReason={addBlocker ?? undefined}
          >
            Add Step
          </Button>
        }
      />
      <div className="space-y-4 px-5 py-5">
        <div className="flex items-start gap-2.5 rounded-lg bg-slate-50 px-3.5 py-2.5 text-sm text-slate-600 dark:bg-slate-800/50 dark:text-slate-300">
          <FolderOpen className="mt-0.5 size-4 shrink-0 text-slate-400" aria-hidden />
          <p>
            Default working directory for all steps:{' '}
            <code className="rounded bg-white px-1.5 py-0.5 font-mono text-xs text-slate-800 ring-1 ring-slate-200 dark:bg-slate-900 dark:text-slate-200 dark:ring-slate-700">
              {DEFAULT_WORKING_DIRECTORY}
            </code>
          </p>
        </div>
        {steps.length === 0 ? (
          <div className="flex flex-col items-center rounded-lg border border-dashed border-slate-300 px-6 py-10 text-center dark:border-slate-700">
            <ListPlus className="size-8 text-slate-300 dark:text-slate-600" aria-hidden />
            <p className="mt-2 text-sm font-medium text-slate-700 dark:text-slate-200">No steps yet</p>
            <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{messages.packageStepsRequired}</p>
            <Button
              className="mt-4"
              size="sm"
              icon={<Plus className="size-4" />}
              onClick={onAdd}
              disabled={isLocked}
            >
              Add the first step
            </Button>
          </div>
        ) : (
          <StepList steps={steps} isDisabled={isLocked} onMove={onMove} onEdit={onEdit} onDelete={onDelete} />
        )}
      </div>
    </Card>
  );
}
