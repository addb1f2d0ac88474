import { NavLink } from 'react-router';
import { X } from 'lucide-react';
import type { SessionUser } from '@outpost/contract/auth';
import { cn } from '../../lib/cn';
import { initials } from '../../lib/format';
import { NavAlertsBadge } from './nav-alerts-badge';
import { Logo } from './logo';
import { bottomNav, mainNav, managementNav } from './nav-items';
import type { NavItem } from './nav-items';

function NavGroup({
  title,
  items,
  isMinimized,
  onNavigate,
}: {
  title?: string;
  items: NavItem[];
  isMinimized: boolean;
  onNavigate?: () => void;
}) {
  return (
    <div className="space-y-1">
      {title &&
        (isMinimized ? (
          <div className="mx-3 my-3 border-t border-slate-200 dark:border-slate-800" aria-hidden />
        ) : (
          <p className="px-3 pt-5 pb-1.5 text-[11px] font-semibold tracking-wider text-slate-500 uppercase dark:text-slate-400">
            {title}
          </p>
        ))}
      {items.map(({ to, label, icon: Icon }) => (
        <NavLink
          key={to}
          to={to}
          onClick={onNavigate}
          title={isMinimized ? label : undefined}
          className={({ isActive }) =>
            cn(
              'group relative flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition-colors',
              isMinimized && 'justify-center px-0',
              isActive
                ? 'bg-indigo-50 text-indigo-700 dark:bg-indigo-500/15 dark:text-indigo-300'
                : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800/70 dark:hover:text-white',
            )
          }
        >
          {({ isActive }) => (
            <>
              <Icon
                className={cn(
                  'size-5 shrink-0',
                  isActive
                    ? 'text-indigo-600 dark:text-indigo-400'
                    : 'text-slate-400 group-hover:text-slate-600 dark:text-slate-500 dark:group-hover:text-slate-300',
                )}
                aria-hidden
              />
              <span className={cn(isMinimized && 'sr-only')}>{label}</span>
              {to === '/alerts' && <NavAlertsBadge isMinimized={isMinimized} />}
            </>
          )}
        </NavLink>
      ))}
    </div>
  );
}

function UserBlock({ user, isMinimized }: { user: SessionUser; isMinimized: boolean }) {
  return (
    <div
      className={cn(
        'flex items-center gap-3 rounded-lg bg-slate-50 p-2.5 dark:bg-slate-800/60',
        isMinimized && 'justify-center bg-transparent p-0 dark:bg-transparent',
      )}
    >
      <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-indigo-600 text-sm font-semibold text-white">
        {initials(user.name, user.email)}
      </span>
      {!isMinimized && (
        <div className="min-w-0" data-testid="sidebar-user">
          <p className="truncate text-sm font-medium text-slate-900 dark:text-white">{user.name || 'User'}</p>
          <p className="truncate text-xs text-slate-500 dark:text-slate-400" data-testid="sidebar-tenant">
            {user.tenant_name}
          </p>
        </div>
      )}
    </div>
  );
}

function SidebarBody({
  user,
  isMinimized,
  onNavigate,
}: {
  user: SessionUser;
  isMinimized: boolean;
  onNavigate?: () => void;
}) {
  return (
    <>
      <nav aria-label="Main" className="flex-1 overflow-y-auto px-3 py-4">
        <NavGroup items={mainNav} isMinimized={isMinimized} onNavigate={onNavigate} />
        <NavGroup
          title="Management"
          items={managementNav}
          isMinimized={isMinimized}
          onNavigate={onNavigate}
        />
      </nav>
      <div className="space-y-3 border-t border-slate-200 px-3 py-3 dark:border-slate-800">
        <NavGroup items={bottomNav} isMinimized={isMinimized} onNavigate={onNavigate} />
        <UserBlock user={user} isMinimized={isMinimized} />
      </div>
    </>
  );
}

export function Sidebar({ user, isMinimized }: { user: SessionUser; isMinimized: boolean }) {
  return (
    <aside
      data-minimized={isMinimized}
      className={cn(
        'fixed inset-y-0 left-0 z-30 hidden flex-col border-r border-slate-200 bg-white transition-[width] duration-200 lg:flex dark:border-slate-800 dark:bg-slate-900',
        isMinimized ? 'w-[4.5rem]' : 'w-64',
      )}
    >
      <div
        className={cn(
          'flex h-16 shrink-0 items-center border-b border-slate-200 px-4 dark:border-slate-800',
          isMinimized && 'justify-center px-0',
        )}
      >
        <Logo isCompact={isMinimized} />
      </div>
      <SidebarBody user={user} isMinimized={isMinimized} />
    </aside>
  );
}

export function MobileSidebar({
  user,
  isOpen,
  onClose,
}: {
  user: SessionUser;
  isOpen: boolean;
  onClose: () => void;
}) {
  if (!isOpen) {
    return null;
  }
  return (
    <div className="fixed inset-0 z-40 lg:hidden" role="dialog" aria-modal="true" aria-label="Navigation">
      <div className="animate-fade-in absolute inset-0 bg-slate-900/50" onClick={onClose} aria-hidden />
      <aside className="animate-fade-in relative flex h-full w-72 max-w-[85%] flex-col bg-white shadow-xl dark:bg-slate-900">
        <div className="flex h-16 items-center justify-between border-b border-slate-200 px-4 dark:border-slate-800">
          <Logo />
          <button
            type="button"
            onClick={onClose}
            aria-label="Close menu"
            className="rounded-md p-1.5 text-slate-500 hover:bg-slate-100 dark:hover:bg-slate-800"
          >
            <X className="size-5" />
          </button>
        </div>
        <SidebarBody user={user} isMinimized={false} onNavigate={onClose} />
      </aside>
    </div>
  );
}
