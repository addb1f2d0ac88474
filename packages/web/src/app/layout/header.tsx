import { useNavigate } from 'react-router';
import {
  Building2,
  Check,
  ChevronDown,
  LogOut,
  Menu as MenuIcon,
  Moon,
  PanelLeftClose,
  PanelLeftOpen,
  Sun,
  UserCircle,
} from 'lucide-react';
import { roleLabel } from '@outpost/contract/auth';
import type { SessionUser } from '@outpost/contract/auth';
import { messages } from '@outpost/contract/messages';
import { IconButton } from '../../components/ui/button';
import { Menu, MenuItem } from '../../components/ui/menu';
import { Spinner } from '../../components/ui/spinner';
import { useToast } from '../../components/ui/toast';
import { errorMessage } from '../../lib/api-client';
import { useAuth } from '../../lib/auth';
import { cn } from '../../lib/cn';
import { initials } from '../../lib/format';
import { useSwitchTenant, useTenants } from '../../features/auth/api/tenants';
import { LiveBadge } from './live-badge';

function OrganizationSwitcher({ user }: { user: SessionUser }) {
  const tenants = useTenants(user.tenant_id);
  const switcher = useSwitchTenant();
  const toast = useToast();
  // docs/product/sign-in.md#shell — only when the user has more than one organisation.
  if (!tenants.data || tenants.data.length < 2) {
    return null;
  }
  const isSwitching = switcher.isPending;
  return (
    <Menu
      label="Switch organization"
      trigger={({ isOpen }) => (
        <span className="flex h-9 items-center gap-2 rounded-md px-2.5 text-sm font-medium text-slate-700 ring-1 ring-slate-200 hover:bg-slate-50 dark:text-slate-200 dark:ring-slate-700 dark:hover:bg-slate-800">
          {isSwitching ? <Spinner className="size-4" /> : <Building2 className="size-4 text-slate-400" />}
          <span className="hidden max-w-40 truncate md:inline" data-testid="current-organization">
            {user.tenant_name}
          </span>
          <ChevronDown className={cn('size-4 text-slate-400 transition-transform', isOpen && 'rotate-180')} />
        </span>
      )}
    >
      {(close) => (
        <>
          <p className="px-2.5 pt-1.5 pb-1 text-xs font-semibold text-slate-500 uppercase dark:text-slate-400">
            Organizations
          </p>
          {tenants.data.map((t) => (
            <MenuItem
              key={t.id}
              disabled={t.is_current || isSwitching}
              isActive={t.is_current}
              icon={
                t.is_current ? <Check className="size-4 text-indigo-600" /> : <Building2 className="size-4" />
              }
              onClick={() => {
                close();
                switcher.mutate(t.id, {
                  onError: (err) =>
                    toast.show({
                      type: 'error',
                      title: messages.switchFailed(errorMessage(err, 'Unknown error')),
                    }),
                });
              }}
            >
              <span className="flex-1 truncate">{t.tenant_name}</span>
              <span className="text-xs text-slate-500 dark:text-slate-400">{roleLabel(t.role, true)}</span>
            </MenuItem>
          ))}
        </>
      )}
    </Menu>
  );
}

function UserMenu({ user }: { user: SessionUser }) {
  const { signOut } = useAuth();
  const navigate = useNavigate();
  return (
    <Menu
      label="User menu"
      trigger={() => (
        <span className="flex items-center gap-2.5 rounded-md p-1 pr-2 hover:bg-slate-100 dark:hover:bg-slate-800">
          <span className="flex size-8 items-center justify-center rounded-full bg-indigo-600 text-xs font-semibold text-white">
            {initials(user.name, user.email)}
          </span>
          <span className="hidden text-left leading-tight sm:block">
            <span
              className="block max-w-36 truncate text-sm font-medium text-slate-900 dark:text-white"
              data-testid="header-user-name"
            >
              {user.name || user.email.charAt(0).toUpperCase()}
            </span>
            <span className="block text-xs text-slate-500 dark:text-slate-400">{roleLabel(user.role)}</span>
          </span>
          <ChevronDown className="hidden size-4 text-slate-400 sm:block" />
        </span>
      )}
    >
      {(close) => (
        <>
          <div className="border-b border-slate-100 px-2.5 pt-1.5 pb-2.5 dark:border-slate-700">
            <p className="truncate text-sm font-medium text-slate-900 dark:text-white">
              {user.name || 'User'}
            </p>
            <p className="truncate text-xs text-slate-500 dark:text-slate-400">{user.email}</p>
          </div>
          <div className="pt-1">
            <MenuItem
              icon={<UserCircle className="size-4" />}
              onClick={() => {
                close();
                void navigate('/profile');
              }}
            >
              Your profile
            </MenuItem>
            <MenuItem
              icon={<LogOut className="size-4" />}
              onClick={() => {
                close();
                signOut();
              }}
            >
              Sign out
            </MenuItem>
          </div>
        </>
      )}
    </Menu>
  );
}

export function Header({
  user,
  isDark,
  onToggleDark,
  isSidebarMinimized,
  onToggleSidebar,
  onOpenMobileMenu,
}: {
  user: SessionUser;
  isDark: boolean;
  onToggleDark: () => void;
  isSidebarMinimized: boolean;
  onToggleSidebar: () => void;
  onOpenMobileMenu: () => void;
}) {
  return (
    <header className="sticky top-0 z-20 flex h-16 shrink-0 items-center gap-2 border-b border-slate-200 bg-white/90 px-4 backdrop-blur sm:px-6 dark:border-slate-800 dark:bg-slate-900/90">
      <div className="lg:hidden">
        <IconButton label="Open menu" onClick={onOpenMobileMenu}>
          <MenuIcon className="size-5" />
        </IconButton>
      </div>
      <IconButton
        label={isSidebarMinimized ? 'Expand sidebar' : 'Minimize sidebar'}
        className="hidden lg:inline-flex"
        onClick={onToggleSidebar}
      >
        {isSidebarMinimized ? <PanelLeftOpen className="size-5" /> : <PanelLeftClose className="size-5" />}
      </IconButton>
      <div className="flex-1" />
      <LiveBadge />
      <OrganizationSwitcher user={user} />
      <IconButton label={isDark ? 'Switch to light mode' : 'Switch to dark mode'} onClick={onToggleDark}>
        {isDark ? <Sun className="size-5" /> : <Moon className="size-5" />}
      </IconButton>
      <div className="mx-1 hidden h-6 w-px bg-slate-200 sm:block dark:bg-slate-700" aria-hidden />
      <UserMenu user={user} />
    </header>
  );
}
