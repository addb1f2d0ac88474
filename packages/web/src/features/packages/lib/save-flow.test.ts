import { describe, expect, it } from 'vitest';
import { packageMessages } from '@outpost/contract/messages';
import type { PackageDetail, PackageStep } from '@outpost/contract/packages';
import { EMPTY_INFO, moveStep, newStepDraft, packageBlockers, validateStepDraft } from './builder-state';
import type { StepDraft } from './builder-state';
import { ApiError } from '../../../lib/api-client';
import { savePackage } from './save-flow';
import type { SaveDeps } from './save-flow';

function fakeServer(failOn?: string, deleteError?: Error) {
  const calls: string[] = [];
  let nextId = 100;
  const deps: SaveDeps = {
    createPackage: () => {
      calls.push('create');
      return Promise.resolve({ id: 1 } as PackageDetail);
    },
    updatePackage: (id) => {
      calls.push(`update ${id}`);
      return Promise.resolve({ id } as PackageDetail);
    },
    addStep: (_p, step) => {
      calls.push(`add ${step.step_name}`);
      if (failOn === step.step_name) {
        return Promise.reject(new Error('Please fill in required fields: Command'));
      }
      return Promise.resolve({ id: nextId++ } as PackageStep);
    },
    updateStep: (_p, id, step) => {
      calls.push(`put ${id} ${step.step_name}`);
      return Promise.resolve({ id } as PackageStep);
    },
    deleteStep: (_p, id) => {
      calls.push(`delete ${id}`);
      return deleteError ? Promise.reject(deleteError) : Promise.resolve({});
    },
    reorderSteps: (_p, ids) => {
      calls.push(`reorder ${ids.join(',')}`);
      return Promise.resolve([]);
    },
  };
  return { deps, calls };
}

const step = (name: string, over: Partial<StepDraft> = {}): StepDraft => ({
  ...newStepDraft('CMD'),
  step_name: name,
  step_details: { command: 'dir' },
  ...over,
});

describe('the save flow (docs/product/packages.md#saving)', () => {
  it('creates the package, adds the steps one at a time in order, then orders them', async () => {
    const { deps, calls } = fakeServer();
    const result = await savePackage(deps, {
      packageId: null,
      info: { ...EMPTY_INFO, name: ' App ' },
      steps: [step('a'), step('b')],
    });
    expect(result).toEqual({ ok: true, packageId: 1 });
    expect(calls).toEqual(['create', 'add a', 'add b', 'reorder 100,101']);
  });

  it('in edit mode updates only changed steps and adds new ones', async () => {
    const { deps, calls } = fakeServer();
    await savePackage(deps, {
      packageId: 7,
      info: { ...EMPTY_INFO, name: 'App' },
      steps: [
        step('new'),
        step('same', { id: 5, isDirty: false }),
        step('changed', { id: 6, isDirty: true }),
      ],
    });
    expect(calls).toEqual(['update 7', 'add new', 'put 6 changed', 'reorder 100,5,6']);
  });

  it('names the failing step and keeps what was saved, so a retry does not repeat it', async () => {
    const { deps, calls } = fakeServer('b');
    const result = await savePackage(deps, {
      packageId: null,
      info: { ...EMPTY_INFO, name: 'App' },
      steps: [step('a'), step('b')],
    });
    expect(result).toMatchObject({
      ok: false,
      packageId: 1,
      error: packageMessages.stepAddFailed('b', 'Please fill in required fields: Command'),
    });
    expect(!result.ok && result.steps.map((s) => [s.id, s.isDirty])).toEqual([
      [100, false],
      [null, true],
    ]);
    expect(calls).toEqual(['create', 'add a', 'add b']);
  });
});

describe('removed steps are deleted on save, not before', () => {
  it('deletes the removed saved steps first, then saves and orders the rest', async () => {
    const { deps, calls } = fakeServer();
    const result = await savePackage(deps, {
      packageId: 7,
      info: { ...EMPTY_INFO, name: 'App' },
      steps: [step('kept', { id: 5, isDirty: false }), step('new')],
      deletedStepIds: [4, 6],
    });
    expect(result).toEqual({ ok: true, packageId: 7 });
    expect(calls).toEqual(['update 7', 'delete 4', 'delete 6', 'add new', 'reorder 5,100']);
  });

  it('counts a step already gone as deleted, and keeps the others to delete after a failure', async () => {
    const gone = fakeServer(undefined, new ApiError('Step not found', 404));
    expect(
      await savePackage(gone.deps, {
        packageId: 7,
        info: { ...EMPTY_INFO, name: 'App' },
        steps: [step('kept', { id: 5, isDirty: false })],
        deletedStepIds: [4],
      }),
    ).toEqual({ ok: true, packageId: 7 });

    const failing = fakeServer(undefined, new ApiError('boom', 500));
    const result = await savePackage(failing.deps, {
      packageId: 7,
      info: { ...EMPTY_INFO, name: 'App' },
      steps: [step('kept', { id: 5, isDirty: false })],
      deletedStepIds: [4, 6],
    });
    expect(result).toMatchObject({
      ok: false,
      deletedStepIds: [4, 6],
      error: `${packageMessages.stepDeleteFailed}: boom`,
    });
    expect(failing.calls).toEqual(['update 7', 'delete 4']);
  });
});

describe('builder rules (docs/product/packages.md)', () => {
  it('lists why the package cannot be saved, in the spec’s order', () => {
    expect(packageBlockers({ name: ' ' }, [])).toEqual([
      packageMessages.packageNameRequired,
      packageMessages.packageStepsRequired,
    ]);
    expect(packageBlockers({ name: 'x' }, [1])).toEqual([]);
  });

  it('checks a step: name, then required fields, then timeout and retries', () => {
    const issues = validateStepDraft({
      step_name: '',
      step_type: 'FOLDER',
      step_details: {},
      timeout_seconds: 0,
      retry_count: 9,
    });
    expect(issues.map((i) => i.message)).toEqual([
      packageMessages.stepNameRequired,
      packageMessages.requiredStepFields(['Folder Path']),
      packageMessages.stepTimeoutRange,
      packageMessages.stepRetryRange,
    ]);
  });

  it('moves steps', () => {
    const list = [step('a'), step('b'), step('c')];
    expect(moveStep(list, 2, 0).map((s) => s.step_name)).toEqual(['c', 'a', 'b']);
    expect(moveStep(list, 0, 5)).toBe(list);
  });
});
