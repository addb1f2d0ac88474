// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import type { ReactNode } from 'react';
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '@outpost/contract/auth';
import { STORAGE_KEYS } from '@outpost/contract/limits';
import { AuthProvider, profileQueryKey } from '../../../lib/auth';
import { stepSummary } from '../lib/step-summary';
import { FileUploadField } from './file-upload-field';

// Bidi control characters in file names are shown as visible escapes wherever a file name is
// shown (SECURITY.md "Bidi control characters in file names"): "invoice\u202Egpj.exe" would
// otherwise read as "invoiceexe.jpg".

const TOKEN = 'test-token';
const user = { id: 1, tenant_id: 7, name: 'Alex', email: 'a@x', role: 'user' } as unknown as SessionUser;
const tricky = 'invoice\u202Egpj.exe';
const BIDI = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

function renderField(name: string) {
  localStorage.setItem(STORAGE_KEYS.token, TOKEN);
  vi.stubGlobal('fetch', () => new Promise(() => undefined)); // the usage label waits
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(profileQueryKey(TOKEN), user);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <AuthProvider>{children}</AuthProvider>
    </QueryClientProvider>
  );
  render(
    <FileUploadField
      label="Installer"
      value={{ id: 3, originalFilename: name }}
      onChange={() => undefined}
      onUploadingChange={() => undefined}
    />,
    { wrapper },
  );
}

describe('file names with bidi control characters', () => {
  it('the uploaded file field shows the override escaped, in its text and its button label', () => {
    renderField(tricky);
    const shown = screen.getByTestId('uploaded-file-name');
    expect(shown).toHaveTextContent('invoice\\u202Egpj.exe');
    expect(shown.textContent).not.toMatch(BIDI);
    expect(screen.getByRole('button', { name: 'Remove invoice\\u202Egpj.exe' })).toBeInTheDocument();
  });

  it('every bidi control is escaped, other characters are left alone', () => {
    const controls = ['\u200E', '\u200F', '\u202A', '\u202B', '\u202C', '\u202D', '\u202E'];
    const isolates = ['\u2066', '\u2067', '\u2068', '\u2069'];
    renderField(`a${[...controls, ...isolates].join('')}ü文件.msi`);
    expect(screen.getByTestId('uploaded-file-name')).toHaveTextContent(
      'a\\u200E\\u200F\\u202A\\u202B\\u202C\\u202D\\u202E\\u2066\\u2067\\u2068\\u2069ü文件.msi',
    );
  });

  it('the step list summary shows a step’s file name escaped', () => {
    const exe = stepSummary('EXE', { source_type: 'upload', file: { id: 3, originalFilename: tricky } });
    expect(exe).toBe('invoice\\u202Egpj.exe');
    const zip = stepSummary('CUSTOM_ZIP', {
      zip_file: { id: 4, originalFilename: 'tools\u2067piz.exe' },
      main_executable: 'run.exe',
    });
    expect(zip).toBe('tools\\u2067piz.exe → run.exe');
  });
});
