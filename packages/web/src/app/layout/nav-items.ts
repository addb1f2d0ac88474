import {
  Activity,
  AppWindow,
  Bell,
  Boxes,
  Building2,
  LayoutDashboard,
  Monitor,
  Package,
  Rocket,
  ScrollText,
  Server,
  SlidersHorizontal,
  Tags,
  UserCircle,
  Users,
  Workflow,
} from 'lucide-react';
import type { LucideIcon } from 'lucide-react';

export type NavItem = { to: string; label: string; icon: LucideIcon };

// docs/product/sign-in.md#shell — main group, Management group (shown to every user), Profile at the bottom.
export const mainNav: NavItem[] = [
  { to: '/dashboard', label: 'Dashboard', icon: LayoutDashboard },
  { to: '/devices', label: 'Devices', icon: Monitor },
  { to: '/groups', label: 'Groups', icon: Boxes },
  { to: '/software', label: 'Software', icon: AppWindow },
  { to: '/device-activity', label: 'Device Activity', icon: Activity },
  { to: '/packages', label: 'Packages', icon: Package },
  { to: '/deployments', label: 'Deployments', icon: Rocket },
  { to: '/policies', label: 'Policies', icon: Workflow },
];
export const managementNav: NavItem[] = [
  { to: '/users', label: 'Users', icon: Users },
  { to: '/agents', label: 'Agents', icon: Server },
  { to: '/sites', label: 'Sites', icon: Building2 },
  { to: '/custom-fields', label: 'Custom Fields', icon: SlidersHorizontal },
  { to: '/tags', label: 'Tags', icon: Tags },
  { to: '/notification-channels', label: 'Notifications', icon: Bell },
  { to: '/audit-logs', label: 'Audit Logs', icon: ScrollText },
];
export const bottomNav: NavItem[] = [{ to: '/profile', label: 'Profile', icon: UserCircle }];
