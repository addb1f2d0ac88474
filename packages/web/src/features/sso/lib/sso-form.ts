import type { Role } from '@outpost/contract/auth';
import type { SsoProvider, SsoProviderBody } from '@outpost/contract/sso';

// The SSO screen's form and its body (docs/product/sign-in.md#the-sso-screen): pure, tested.

export type MappingRow = { group: string; role: Role; allSites: boolean; siteIds: number[] };
export type SsoForm = {
  issuer: string;
  clientId: string;
  /** empty: keep the stored secret */
  clientSecret: string;
  domains: string;
  jitEnabled: boolean;
  defaultRole: Role;
  groupsClaim: string;
  mappings: MappingRow[];
};

export function toForm(p: SsoProvider | null): SsoForm {
  return {
    issuer: p?.issuer ?? '',
    clientId: p?.client_id ?? '',
    clientSecret: '',
    domains: p?.allowed_domains.join(', ') ?? '',
    jitEnabled: p?.jit_enabled ?? false,
    defaultRole: p?.default_role ?? 'user',
    groupsClaim: p?.groups_claim ?? '',
    mappings: (p?.mappings ?? []).map((m) => ({
      group: m.group,
      role: m.role,
      allSites: m.site_ids === null,
      siteIds: m.site_ids ?? [],
    })),
  };
}

/** Domains typed with commas, spaces or new lines, lower-case, each once. */
export const parseDomains = (text: string) => [
  ...new Set(
    text
      .split(/[\s,;]+/)
      .map((d) => d.trim().toLowerCase().replace(/^@/, ''))
      .filter(Boolean),
  ),
];

export function toBody(form: SsoForm): SsoProviderBody {
  return {
    issuer: form.issuer.trim(),
    client_id: form.clientId.trim(),
    ...(form.clientSecret !== '' && { client_secret: form.clientSecret }),
    allowed_domains: parseDomains(form.domains),
    jit_enabled: form.jitEnabled,
    default_role: form.defaultRole,
    groups_claim: form.groupsClaim.trim() || null,
    mappings: form.mappings
      .filter((m) => m.group.trim() !== '')
      .map((m) => ({ group: m.group.trim(), role: m.role, site_ids: m.allSites ? null : m.siteIds })),
  };
}
