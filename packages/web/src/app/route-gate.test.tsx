// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '@outpost/contract/limits';
import { messages } from '@outpost/contract/messages';
import { AuthProvider } from '../lib/auth';
import { RequireAuth } from './route-gate';

// docs/product/sign-in.md#sessions and #sign-in-screen — on reload the profile is fetched with the stored token; a refused token
// (401) is removed and the visitor goes to /login. A server error is not a refusal: the session is
// kept and the gate offers Try Again. The server is a stubbed fetch answering in turn.

type Reply = { status: number; body: unknown };
let replies: Reply[] = [];

const profile = { id: 1, email: 'ada@example.test', name: 'Ada', role: 'admin', tenant_id: 1 };

beforeEach(() => {
  localStorage.setItem(STORAGE_KEYS.token, 'token-1');
  vi.stubGlobal(
    'fetch',
    vi.fn(() => {
      const reply = replies.shift() ?? { status: 200, body: { success: true, data: profile } };
      return Promise.resolve(new Response(JSON.stringify(reply.body), { status: reply.status }));
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
  replies = [];
});

function renderApp() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: '/login', element: <p>Sign-in page</p> },
      { element: <RequireAuth />, children: [{ path: '/dashboard', element: <p>Dashboard page</p> }] },
    ],
    { initialEntries: ['/dashboard'] },
  );
  render(
    <QueryClientProvider client={client}>
      <AuthProvider>
        <RouterProvider router={router} />
      </AuthProvider>
    </QueryClientProvider>,
  );
}

describe('reloading with a stored token', () => {
  it('keeps the session on a server error and loads the page after Try Again', async () => {
    replies = [{ status: 500, body: { success: false, error: 'Internal server error' } }];
    renderApp();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(messages.profileLoad);
    expect(alert).toHaveTextContent(messages.sessionKept);
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('token-1');
    expect(screen.queryByText('Sign-in page')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('Dashboard page')).toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('token-1');
  });

  it('keeps the session when the server cannot be reached', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    renderApp();
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.profileLoad);
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('token-1');
  });

  it('removes a refused token (401) and goes to sign-in', async () => {
    replies = [{ status: 401, body: { success: false, error: messages.tokenInvalid } }];
    renderApp();
    expect(await screen.findByText('Sign-in page')).toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });

  it('offers Sign out, which removes the kept token', async () => {
    replies = [{ status: 503, body: { success: false, error: messages.databaseUnavailable } }];
    renderApp();
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(await screen.findByText('Sign-in page')).toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });
});
