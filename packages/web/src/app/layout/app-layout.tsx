import { Suspense, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { PageSpinner } from '../../components/ui/spinner';
import { useAuth, useUser } from '../../lib/auth';
import { cn } from '../../lib/cn';
import { LiveSocketProvider } from '../../lib/socket';
import { useDarkMode, useSidebarMinimized } from '../../lib/theme';
import { AlertsWatch } from '../alerts-watch';
import { DeployDialogHost } from '../deploy-dialog-host';
import { LiveNotifications } from '../live-notifications';
import { Header } from './header';
import { MobileSidebar, Sidebar } from './sidebar';
import { MAIN_CONTENT_ID, SkipLink } from './skip-link';

// The signed-in shell: sidebar, header, the live socket and its notifications. It is its own
// lazily loaded chunk, so the sign-in screen does not download any of it (nor zod, which the
// socket uses to check messages).
export default function AppLayout() {
  const user = useUser();
  const { token } = useAuth();
  const [isDark, toggleDark] = useDarkMode();
  const [isMinimized, toggleMinimized] = useSidebarMinimized();
  const [isMobileOpen, setIsMobileOpen] = useState(false);
  const location = useLocation();
  return (
    <LiveSocketProvider tenantId={user.tenant_id} userId={user.id} token={token}>
      <DeployDialogHost>
        <div className="min-h-screen">
          <SkipLink />
          <LiveNotifications />
          <AlertsWatch />
          <Sidebar user={user} isMinimized={isMinimized} />
          <MobileSidebar user={user} isOpen={isMobileOpen} onClose={() => setIsMobileOpen(false)} />
          <div
            className={cn(
              'flex min-h-screen flex-col transition-[padding] duration-200',
              isMinimized ? 'lg:pl-[4.5rem]' : 'lg:pl-64',
            )}
          >
            <Header
              user={user}
              isDark={isDark}
              onToggleDark={toggleDark}
              isSidebarMinimized={isMinimized}
              onToggleSidebar={toggleMinimized}
              onOpenMobileMenu={() => setIsMobileOpen(true)}
            />
            <main
              id={MAIN_CONTENT_ID}
              tabIndex={-1}
              className="mx-auto w-full max-w-[1600px] min-w-0 flex-1 px-4 py-6 outline-none sm:px-6 lg:px-8"
            >
              <Suspense key={location.pathname} fallback={<PageSpinner />}>
                <Outlet />
              </Suspense>
            </main>
          </div>
        </div>
      </DeployDialogHost>
    </LiveSocketProvider>
  );
}
