import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import type { DragEndEvent } from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { GripVertical, Pencil, RotateCcw, Timer, Trash2 } from 'lucide-react';
import { STEP_CATALOG } from '@outpost/contract/step-catalog';
import { Badge } from '../../../components/ui/badge';
import { IconButton } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import type { StepDraft } from '../lib/builder-state';
import { stepSummary } from '../lib/step-summary';
import { StepTypeIcon } from './step-type-icon';

// docs/product/packages.md#builder — drag-to-reorder (dnd-kit, with the keyboard too: focus a handle, Space
// to pick up, arrows to move, Space to drop); the list is numbered from 1 in its current order.

type Props = {
  steps: StepDraft[];
  onMove: (from: number, to: number) => void;
  onEdit: (index: number) => void;
  onDelete: (index: number) => void;
  isDisabled?: boolean;
};

export function StepList({ steps, onMove, onEdit, onDelete, isDisabled }: Props) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  function onDragEnd(event: DragEndEvent) {
    const { active, over } = event;
    if (!over || active.id === over.id) {
      return;
    }
    const from = steps.findIndex((s) => s.key === active.id);
    const to = steps.findIndex((s) => s.key === over.id);
    onMove(from, to);
  }

  const nameOf = (id: string | number) => steps.find((s) => s.key === id)?.step_name || 'step';
  const positionOf = (id: string | number) => steps.findIndex((s) => s.key === id) + 1;

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        announcements: {
          onDragStart: ({ active }) => `Picked up step ${positionOf(active.id)}, ${nameOf(active.id)}.`,
          onDragOver: ({ active, over }) =>
            over
              ? `Step ${nameOf(active.id)} is over position ${positionOf(over.id)}.`
              : 'Not over a position.',
          onDragEnd: ({ active, over }) =>
            over
              ? `Step ${nameOf(active.id)} dropped at position ${positionOf(over.id)}.`
              : `Step ${nameOf(active.id)} dropped.`,
          onDragCancel: ({ active }) => `Moving ${nameOf(active.id)} cancelled.`,
        },
      }}
    >
      <SortableContext items={steps.map((s) => s.key)} strategy={verticalListSortingStrategy}>
        <ol className="space-y-2" aria-label="Installation steps">
          {steps.map((step, index) => (
            <SortableStepRow
              key={step.key}
              step={step}
              index={index}
              isDisabled={isDisabled}
              onEdit={() => onEdit(index)}
              onDelete={() => onDelete(index)}
            />
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}

function SortableStepRow({
  step,
  index,
  isDisabled,
  onEdit,
  onDelete,
}: {
  step: StepDraft;
  index: number;
  isDisabled?: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({
      id: step.key,
      disabled: isDisabled,
    });
  const summary = stepSummary(step.step_type, step.step_details);
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      data-testid="step-row"
      data-step-name={step.step_name}
      className={cn(
        'group flex items-center gap-3 rounded-lg border border-slate-200 bg-white px-2 py-2.5 shadow-xs dark:border-slate-800 dark:bg-slate-900',
        isDragging && 'relative z-10 shadow-lg ring-2 ring-indigo-500/60',
      )}
    >
      <button
        ref={setActivatorNodeRef}
        type="button"
        aria-label={`Reorder step ${index + 1}: ${step.step_name}`}
        className="cursor-grab touch-none rounded p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-600 focus-visible:outline-2 focus-visible:outline-indigo-600 active:cursor-grabbing disabled:cursor-not-allowed dark:hover:bg-slate-800"
        disabled={isDisabled}
        {...attributes}
        {...listeners}
      >
        <GripVertical className="size-4" />
      </button>
      <span
        className="flex size-6 shrink-0 items-center justify-center rounded-full bg-slate-100 text-xs font-semibold text-slate-600 dark:bg-slate-800 dark:text-slate-300"
        aria-label={`Step ${index + 1}`}
      >
        {index + 1}
      </span>
      <span className="hidden sm:block">
        <StepTypeIcon type={step.step_type} />
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-0.5">
          <span className="truncate font-medium text-slate-900 dark:text-white">{step.step_name}</span>
          <span className="text-xs text-slate-500 dark:text-slate-400">
            {STEP_CATALOG[step.step_type].label}
          </span>
          {step.id === null ? (
            <Badge tone="blue">New</Badge>
          ) : step.isDirty ? (
            <Badge tone="yellow">Changed</Badge>
          ) : null}
        </div>
        {summary && (
          <p className="mt-0.5 truncate font-mono text-xs text-slate-500 dark:text-slate-400" title={summary}>
            {summary}
          </p>
        )}
      </div>
      <div className="hidden shrink-0 items-center gap-3 text-xs text-slate-500 md:flex dark:text-slate-400">
        <span className="inline-flex items-center gap-1" title="Timeout">
          <Timer className="size-3.5" aria-hidden />
          {step.timeout_seconds}s
        </span>
        {step.retry_count > 0 && (
          <span className="inline-flex items-center gap-1" title="Retries">
            <RotateCcw className="size-3.5" aria-hidden />
            {step.retry_count}
          </span>
        )}
        {!step.fail_deployment_on_error && <Badge tone="gray">Continue on error</Badge>}
      </div>
      <div className="flex shrink-0 items-center">
        <IconButton label={`Edit step ${index + 1}`} onClick={onEdit} disabled={isDisabled}>
          <Pencil className="size-4" />
        </IconButton>
        <IconButton
          label={`Delete step ${index + 1}`}
          onClick={onDelete}
          disabled={isDisabled}
          className="hover:bg-red-50 hover:text-red-600 dark:hover:bg-red-500/10 dark:hover:text-red-400"
        >
          <Trash2 className="size-4" />
        </IconButton>
      </div>
    </li>
  );
}
