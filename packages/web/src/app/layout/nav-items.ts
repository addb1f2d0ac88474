import {
  Activity,
  AppWindow,
  Bell,
  Boxes,
  Building2,
  FileCode2,
  KeyRound,
  LayoutDashboard,
  Monitor,
  MonitorSmartphone,
  Package,
  Rocket,
  ScrollText,
  Server,
  Siren,
  SlidersHorizontal,
  Tags,
  UserCircle,
  Users,
  Workflow,
  Webhook,
  Fingerprint,
} from 'lucide-react';
import type { LucideIcon } from 'lucide-react';

export type NavItem = { to: string; label: string; icon: LucideIcon };

// docs/product/sign-in.md#shell — main group, Management group (shown to every user), Profile at the bottom.
export const mainNav: NavItem[] = [
  { to: '/dashboard', label: 'Dashboard', icon: LayoutDashboard },
  { to: '/alerts', label: 'Alerts', icon: Siren },
  { to: '/devices', label: 'Devices', icon: Monitor },
  { to: '/groups', label: 'Groups', icon: Boxes },
  { to: '/software', label: 'Software', icon: AppWindow },
  { to: '/device-activity', label: 'Device Activity', icon: Activity },
  { to: '/packages', label: 'Packages', icon: Package },
  { to: '/scripts', label: 'Scripts', icon: FileCode2 },
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
  { to: '/remote-access', label: 'Remote Access', icon: MonitorSmartphone },
  { to: '/audit-logs', label: 'Audit Logs', icon: ScrollText },
  { to: '/api-tokens', label: 'API Tokens', icon: KeyRound },
  { to: '/webhooks', label: 'Webhooks', icon: Webhook },
  { to: '/sso', label: 'Single Sign-On', icon: Fingerprint },
];
export const bottomNav: NavItem[] = [{ to: '/profile', label: 'Profile', icon: UserCircle }];
