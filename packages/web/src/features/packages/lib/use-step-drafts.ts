import { useState } from 'react';
import type { StepDraft } from './builder-state';
import { newStepDraft } from './builder-state';

export type Editing = { index: number; draft: StepDraft; isNew: boolean };

/**
 * The builder's steps while they are edited (docs/product/packages.md#builder): the list, the step open in
 * the editor, a saved step waiting for its delete confirmation, and the saved steps removed here,
 * deleted on the server only when the package is saved
 * (docs/decisions/2026-11-26-step-delete-on-save.md).
 */
export function useStepDrafts(initialSteps: StepDraft[]) {
  const [steps, setSteps] = useState<StepDraft[]>(initialSteps);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [pendingDelete, setPendingDelete] = useState<number | null>(null);
  const [deletedStepIds, setDeletedStepIds] = useState<number[]>([]);

  function openNewStep() {
    setEditing({ index: steps.length, draft: newStepDraft('CMD'), isNew: true });
  }

  function saveStep(draft: StepDraft) {
    if (!editing) {
      return;
    }
    setSteps((list) =>
      editing.isNew ? [...list, draft] : list.map((s, i) => (i === editing.index ? draft : s)),
    );
    setEditing(null);
  }

  function confirmDelete() {
    const step = pendingDelete === null ? undefined : steps[pendingDelete];
    if (step?.id != null) {
      const id = step.id;
      setDeletedStepIds((ids) => [...ids, id]);
    }
    setSteps((list) => list.filter((_, i) => i !== pendingDelete));
    setPendingDelete(null);
  }

  function requestDelete(index: number) {
    if (steps[index]?.id == null) {
      setSteps((list) => list.filter((_, i) => i !== index));
      return;
    }
    setPendingDelete(index);
  }

  return {
    steps,
    setSteps,
    editing,
    setEditing,
    openNewStep,
    saveStep,
    pendingDelete,
    requestDelete,
    confirmDelete,
    cancelDelete: () => setPendingDelete(null),
    deletedStepIds,
    setDeletedStepIds,
  };
}
