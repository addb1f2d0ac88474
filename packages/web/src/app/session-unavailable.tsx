import { messages } from '@outpost/contract/messages';
import { Button } from '../components/ui/button';
import { ErrorState } from '../components/ui/states';
import { useAuth } from '../lib/auth';

/**
 * The profile check on reload failed for a reason that says nothing about the token (a 5xx, a
 * timeout, no network): the session is kept, so the user can try again or sign out on purpose.
 */
export function SessionUnavailable() {
  const { profileError, retryProfile, signOut } = useAuth();
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <ErrorState
        title={messages.profileLoad}
        message={profileError ? `${messages.sessionKept} (${profileError})` : messages.sessionKept}
        onRetry={retryProfile}
        extraAction={
          <Button variant="ghost" onClick={signOut}>
            Sign out
          </Button>
        }
      />
    </main>
  );
}
