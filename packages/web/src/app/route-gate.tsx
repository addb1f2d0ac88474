import { Navigate, Outlet, useLocation } from 'react-router';
import { PageSpinner } from '../components/ui/spinner';
import { useAuth } from '../lib/auth';
import { SessionUnavailable } from './session-unavailable';

// docs/product/sign-in.md#routes-and-the-gate — every route but /login sits behind the gate: a spinner while the
// authentication state loads, /login for visitors, /dashboard for a signed-in visitor of /login.
// A session whose profile could not be checked (a server error) is kept and offered a retry.
export function RequireAuth() {
  const { status } = useAuth();
  const location = useLocation();
  if (status === 'loading') {
    return <FullScreenSpinner />;
  }
  if (status === 'unavailable') {
    return <SessionUnavailable />;
  }
  if (status === 'anonymous') {
    return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  }
  return <Outlet />;
}

export function RedirectIfSignedIn() {
  const { status } = useAuth();
  if (status === 'loading') {
    return <FullScreenSpinner />;
  }
  if (status === 'unavailable') {
    return <SessionUnavailable />;
  }
  if (status === 'authenticated') {
    return <Navigate to="/dashboard" replace />;
  }
  return <Outlet />;
}

/** Also what the router shows while the first screen's lazily loaded code arrives. */
export function FullScreenSpinner() {
  return (
    <div className="flex min-h-screen items-center justify-center">
      <PageSpinner />
    </div>
  );
}
