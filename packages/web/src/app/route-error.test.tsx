// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RouteError } from './route-error';

function Broken(): never {
  throw new Error("Cannot read properties of undefined (reading 'totalPages')");
}

describe('a screen that throws while rendering', () => {
  afterEach(cleanup);

  it('shows what failed and a way out, instead of the router developer page', () => {
    // React logs the caught render error; the test is about what the user sees
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const router = createMemoryRouter(
      [{ path: '/broken', element: <Broken />, errorElement: <RouteError /> }],
      { initialEntries: ['/broken'] },
    );
    render(<RouterProvider router={router} />);
    expect(screen.getByRole('alert')).toHaveTextContent('This page could not be shown');
    expect(screen.getByRole('alert')).toHaveTextContent("reading 'totalPages'");
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
    expect(screen.queryByText(/Hey developer/)).not.toBeInTheDocument();
  });
});
