// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { packageMessages } from '@outpost/contract/messages';
import { newStepDraft } from '../lib/builder-state';
import { StepEditorDialog } from './step-editor-dialog';

// The upload field shows the organisation's storage usage (SECURITY.md R2-14) for the signed-in member.
vi.mock('../../../lib/auth', () => ({ useUser: () => ({ id: 1, tenant_id: 7, role: 'tenant_admin' }) }));

// The builder asks for the Expected SHA-256 of a "Download from URL" source and refuses an
// http:// URL without it, with the contract's message (SECURITY.md "Download from URL").
describe('step editor: Download from URL', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('asks for the Expected SHA-256 and refuses an http:// URL without it', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn();
    vi.stubGlobal('fetch', () => new Promise(() => undefined)); // the usage label waits
    render(
      <QueryClientProvider client={new QueryClient()}>
        <StepEditorDialog
          draft={{ ...newStepDraft('EXE'), step_name: 'Install' }}
          targetOs="windows"
          stepNumber={1}
          isNew
          onSave={onSave}
          onCancel={vi.fn()}
        />
      </QueryClientProvider>,
    );
    // the field belongs to the URL source only
    expect(screen.queryByLabelText(/Expected SHA-256/)).toBeNull();
    await user.selectOptions(screen.getByLabelText(/Source Type/), 'url');
    await user.click(screen.getByLabelText(/Download URL/));
    await user.paste('http://intranet.example/setup.exe');
    await user.click(screen.getByRole('button', { name: 'Add Step' }));
    expect(
      within(screen.getByTestId('step-errors')).getByText(packageMessages.stepHttpNeedsSha256),
    ).toBeVisible();
    expect(onSave).not.toHaveBeenCalled();

    await user.click(screen.getByLabelText(/Expected SHA-256/));
    await user.paste('ab'.repeat(32));
    await user.click(screen.getByRole('button', { name: 'Add Step' }));
    expect(onSave).toHaveBeenCalledTimes(1);
    expect(onSave.mock.calls[0]?.[0]).toMatchObject({
      step_details: { source_type: 'url', url: 'http://intranet.example/setup.exe', sha256: 'ab'.repeat(32) },
    });
  });
});

// docs/architecture.md "Package targets": a Linux package holds no Windows-only step.
describe('step editor: package targets', () => {
  afterEach(cleanup);

  it('offers a Linux package no Windows-only step type', async () => {
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <StepEditorDialog
          draft={{ ...newStepDraft('CMD'), step_name: 'Hello' }}
          targetOs="linux"
          stepNumber={1}
          isNew
          onSave={vi.fn()}
          onCancel={vi.fn()}
        />
      </QueryClientProvider>,
    );
    const types = screen.getByRole('radiogroup', { name: 'Step Type' });
    expect(within(types).getByRole('radio', { name: /Install MSI/ })).toBeDisabled();
    expect(within(types).getByRole('radio', { name: /Registry/ })).toBeDisabled();
    expect(within(types).getByRole('radio', { name: /^Command/ })).toBeEnabled();
    await user.click(within(types).getByRole('radio', { name: /Registry/ }));
    expect(within(types).getByRole('radio', { name: /Registry/ })).not.toBeChecked();
  });
});
