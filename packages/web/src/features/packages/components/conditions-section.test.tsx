// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { conditionMessages } from '@outpost/contract/step-conditions';
import { newStepDraft } from '../lib/builder-state';
import type { StepDraft } from '../lib/builder-state';
import { StepEditorDialog } from './step-editor-dialog';

// docs/product/rollouts.md#step-conditions: the step editor's Conditions section.

vi.mock('../../../lib/auth', () => ({ useUser: () => ({ id: 1, tenant_id: 7, role: 'tenant_admin' }) }));

function renderEditor(draft: StepDraft, onSave = vi.fn()) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <StepEditorDialog
        draft={draft}
        targetOs="windows"
        stepNumber={2}
        isNew
        onSave={onSave}
        onCancel={vi.fn()}
      />
    </QueryClientProvider>,
  );
  return onSave;
}

describe('step editor: Conditions', () => {
  afterEach(cleanup);

  it('is collapsed, says the step runs always, and saves the conditions added', async () => {
    const user = userEvent.setup();
    const onSave = renderEditor({
      ...newStepDraft('CMD'),
      step_name: 'Run',
      step_details: { command: 'echo hi' },
    });
    const toggle = screen.getByRole('button', { name: /Conditions/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByTestId('conditions-summary')).toHaveTextContent('Runs always');
    expect(screen.queryByRole('button', { name: 'Add condition' })).toBeNull();

    await user.click(toggle);
    await user.click(screen.getByRole('button', { name: 'Add condition' }));
    await user.selectOptions(screen.getByLabelText('Check'), 'not_exists');
    await user.click(screen.getByLabelText('File or folder path'));
    await user.paste('C:\\App\\app.exe');
    await user.click(screen.getByRole('button', { name: 'Add condition' }));
    await user.selectOptions(screen.getByLabelText('Condition 2'), 'exit_code');
    await user.selectOptions(screen.getByLabelText('Exit code'), 'in');
    await user.clear(screen.getByLabelText('Codes'));
    await user.click(screen.getByLabelText('Codes'));
    await user.paste('0, 3010');
    expect(screen.getByTestId('conditions-summary')).toHaveTextContent('Runs when 2 conditions hold');

    await user.click(screen.getByRole('button', { name: 'Add Step' }));
    expect(onSave).toHaveBeenCalledTimes(1);
    expect(onSave.mock.calls[0]?.[0]).toMatchObject({
      conditions: [
        { kind: 'path', path: 'C:\\App\\app.exe', operator: 'not_exists' },
        { kind: 'exit_code', step_order: 1, operator: 'in', codes: [0, 3010] },
      ],
    });
  });

  it('shows the contract’s message and does not save an incomplete condition; a condition can be removed', async () => {
    const user = userEvent.setup();
    const onSave = renderEditor({
      ...newStepDraft('CMD'),
      step_name: 'Run',
      step_details: { command: 'echo hi' },
    });
    await user.click(screen.getByRole('button', { name: /Conditions/ }));
    await user.click(screen.getByRole('button', { name: 'Add condition' }));
    await user.selectOptions(screen.getByLabelText('Condition 1'), 'process');
    await user.click(screen.getByRole('button', { name: 'Add Step' }));
    expect(onSave).not.toHaveBeenCalled();
    expect(
      within(screen.getByTestId('step-errors')).getByText(
        `Condition 1: ${conditionMessages.processRequired}`,
      ),
    ).toBeVisible();
    expect(within(screen.getByTestId('condition-row')).getByRole('alert')).toHaveTextContent(
      conditionMessages.processRequired,
    );

    await user.click(screen.getByRole('button', { name: 'Remove condition 1' }));
    expect(screen.getByTestId('conditions-summary')).toHaveTextContent('Runs always');
    await user.click(screen.getByRole('button', { name: 'Add Step' }));
    expect(onSave.mock.calls[0]?.[0]).toMatchObject({ conditions: [] });
  });

  it('shows a saved step’s conditions, summarised while collapsed', () => {
    renderEditor({
      ...newStepDraft('CMD'),
      step_name: 'Run',
      step_details: { command: 'echo hi' },
      conditions: [
        { kind: 'architecture', architectures: ['x64'] },
        { kind: 'user_logged_in', operator: 'not_logged_in' },
      ],
    });
    expect(screen.getByTestId('conditions-summary')).toHaveTextContent('Runs when 2 conditions hold');
  });
});
