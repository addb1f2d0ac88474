import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorState } from '../components/ui/states';

// What a screen shows when rendering it throws (a bug, or an answer of a different server
// version during an upgrade) instead of React Router's developer page: the message and a way
// out. Reloading fetches the current app and asks the server again. Within the signed-in layout
// the sidebar and header stay, so the user can also go elsewhere.
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'An unexpected error occurred';
  return (
    <div className="py-10">
      <ErrorState
        title="This page could not be shown"
        message={message}
        onRetry={() => window.location.reload()}
      />
    </div>
  );
}
