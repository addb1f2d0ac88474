import { z } from 'zod';
import { IdParam } from './input';

export const ROLES = ['tenant_admin', 'user'] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

export const SITE_ACCESS_TYPES = ['all', 'specific'] as const;
export const SiteAccessType = z.enum(SITE_ACCESS_TYPES);
export type SiteAccessType = z.infer<typeof SiteAccessType>;

// docs/product/sign-in.md#shell — tenant_admin is 'Administrator' (short 'Admin'); anything else 'User'.
export function roleLabel(role: string | undefined, short = false): string {
  if (role === 'tenant_admin') {
    return short ? 'Admin' : 'Administrator';
  }
  return 'User';
}

export const NotificationPrefs = z.object({
  emailAlerts: z.boolean(),
  agentDowntime: z.boolean(),
  weeklyReports: z.boolean(),
  billing: z.boolean(),
});
export type NotificationPrefs = z.infer<typeof NotificationPrefs>;
export const DEFAULT_NOTIFICATION_PREFS: NotificationPrefs = {
  emailAlerts: true,
  agentDowntime: true,
  weeklyReports: false,
  billing: false,
};

// docs/product/sign-in.md#organisations — id, tenant_id, name, email, role, tenant_name.
export const SessionUser = z.object({
  id: z.number().int(),
  tenant_id: z.number().int(),
  tenant_name: z.string(),
  name: z.string().nullable(),
  email: z.string(),
  role: Role,
  site_access_type: SiteAccessType,
  company: z.string().nullable(),
  notification_prefs: NotificationPrefs,
});
export type SessionUser = z.infer<typeof SessionUser>;

export const GoogleSignInBody = z.object({ token: z.string().min(1, 'token is required') });
export type GoogleSignInBody = z.infer<typeof GoogleSignInBody>;

export const DevSignInBody = z.object({ email: z.email('email must be an e-mail address') });
export type DevSignInBody = z.infer<typeof DevSignInBody>;

/** POST /auth/link: the secret of a one-time sign-in link (`#link=` on the login page). */
export const LinkSignInBody = z.object({ token: z.string().min(1, 'token is required').max(200) });
export type LinkSignInBody = z.infer<typeof LinkSignInBody>;

export const SignInResult = z.object({ token: z.string(), user: SessionUser });
export type SignInResult = z.infer<typeof SignInResult>;

export const ProfileUpdateBody = z.object({
  name: z.string().trim().max(200, 'Name must be 200 characters or less').optional(),
  company: z.string().trim().max(200, 'Company must be 200 characters or less').nullable().optional(),
  notification_prefs: NotificationPrefs.optional(),
});
export type ProfileUpdateBody = z.infer<typeof ProfileUpdateBody>;

// docs/product/sign-in.md#organisations — Tenant option for the switcher: id, tenant_name, plan, role, is_current.
export const TenantOption = z.object({
  id: z.number().int(),
  tenant_name: z.string(),
  plan: z.string(),
  role: Role,
  is_current: z.boolean(),
});
export type TenantOption = z.infer<typeof TenantOption>;

export const SwitchTenantBody = z.object({ tenant_id: IdParam });
export type SwitchTenantBody = z.infer<typeof SwitchTenantBody>;
export const SwitchTenantResult = z.object({ token: z.string(), user: SessionUser });

export const DevLoginUser = z.object({
  email: z.string(),
  name: z.string().nullable(),
  tenants: z.array(z.object({ tenant_name: z.string(), role: Role })),
});
export type DevLoginUser = z.infer<typeof DevLoginUser>;

// GET /api/config — tells the SPA how to sign in.
export const AppConfig = z.object({
  googleClientId: z.string().nullable(),
  devLogin: z.boolean(),
  devUsers: z.array(DevLoginUser),
  version: z.string(),
  /** single sign-on besides Google (docs/product/sign-in.md#single-sign-on): Microsoft, and the server-wide provider's label */
  sso: z.object({ microsoft: z.boolean(), oidcName: z.string().nullable() }),
});
export type AppConfig = z.infer<typeof AppConfig>;

export const SessionClaims = z.object({ sub: z.string(), tid: z.number().int(), role: Role });
