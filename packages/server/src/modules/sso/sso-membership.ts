import { systemActor, writeAudit } from '../../lib/audit';
import type { AuditActor } from '../../lib/audit';
import type { Executor } from '../../lib/db';
import type { VerifiedIdentity } from '../auth/oidc-verifier';
import type { SessionControl } from '../auth/sessions.service';
import { insertMember, insertMemberSites, setMemberAccess } from '../users/members.service';
import { mappedAccess, sameAccess } from './sso-access';
import type { MemberAccess } from './sso-access';
import { countOtherAllSitesAdmins, findTenantMember, tenantSiteIds } from './sso.queries';
import type { SsoProviderRow } from './sso.queries';

// Just-in-time membership and role mapping at each sign-in through an organisation's provider
// (docs/product/sign-in.md#just-in-time-membership-and-roles). Runs before the session is issued;
// every join and every change of role is audited, and a changed member's other sessions end.

type Meta = { ip: string; userAgent: string | null };

const auditSites = (a: MemberAccess) => (a.siteAccessType === 'specific' ? a.siteIds : null);

/** The member ids whose sessions were revoked (the caller announces it after commit). */
export async function applyMembership(
  tx: Executor,
  provider: SsoProviderRow,
  who: VerifiedIdentity,
  meta: Meta,
  sessions: Pick<SessionControl, 'revokeMembers'>,
): Promise<number[]> {
  const actor: AuditActor = {
    ...systemActor({
      tenantId: provider.tenantId,
      name: 'Single sign-on',
      ip: meta.ip,
      userAgent: meta.userAgent,
    }),
    email: who.email,
  };
  const rules = {
    groupsClaim: provider.groupsClaim,
    mappings: provider.mappings,
    defaultRole: provider.defaultRole,
  };
  const mapped = await withKnownSites(tx, provider.tenantId, mappedAccess(rules, who.claims));
  const member = await findTenantMember(tx, provider.tenantId, who);
  if (!member) {
    if (provider.jitEnabled) {
      await join(
        tx,
        provider,
        who,
        mapped ?? { role: provider.defaultRole, siteAccessType: 'all', siteIds: [] },
        actor,
      );
    }
    return [];
  }
  if (!mapped || sameAccess(member, mapped)) {
    return [];
  }
  const wasAllSitesAdmin = member.role === 'tenant_admin' && member.siteAccessType === 'all';
  const staysAllSitesAdmin = mapped.role === 'tenant_admin' && mapped.siteAccessType === 'all';
  if (
    wasAllSitesAdmin &&
    !staysAllSitesAdmin &&
    (await countOtherAllSitesAdmins(tx, provider.tenantId, member.id)) === 0
  ) {
    // The organisation would have no administrator left to fix its mapping: the role stays.
    await writeAudit(tx, actor, {
      action: 'SSO Role Kept',
      resourceType: 'user',
      resourceId: member.id,
      details: `${who.email} is the last administrator of all sites; the provider's groups would remove that`,
      newValues: mapped,
    });
    return [];
  }
  await setMemberAccess(tx, member.id, mapped, mapped.siteIds);
  await sessions.revokeMembers(tx, [member.id]);
  await writeAudit(tx, actor, {
    action: 'SSO Role Change',
    siteIds: auditSites(member) ?? auditSites(mapped),
    resourceType: 'user',
    resourceId: member.id,
    details: `Access of ${who.email} follows the identity provider's groups`,
    oldValues: { role: member.role, site_access_type: member.siteAccessType, site_ids: member.siteIds },
    newValues: { role: mapped.role, site_access_type: mapped.siteAccessType, site_ids: mapped.siteIds },
  });
  return [member.id];
}

async function join(
  tx: Executor,
  provider: SsoProviderRow,
  who: VerifiedIdentity,
  access: MemberAccess,
  actor: AuditActor,
): Promise<void> {
  const row = await insertMember(tx, {
    tenantId: provider.tenantId,
    email: who.email,
    name: who.name,
    role: access.role,
    siteAccessType: access.siteAccessType,
  });
  if (!row) {
    return;
  }
  await insertMemberSites(tx, row.id, access.siteAccessType === 'specific' ? access.siteIds : []);
  await writeAudit(tx, actor, {
    action: 'SSO Join',
    siteIds: auditSites(access),
    resourceType: 'user',
    resourceId: row.id,
    details: `${who.email} joined on first sign-in through single sign-on`,
    newValues: { role: access.role, site_access_type: access.siteAccessType, site_ids: access.siteIds },
  });
}

/** Sites deleted since the mapping was saved are dropped; specific access to none left is no access to sites. */
async function withKnownSites(tx: Executor, tenantId: number, access: MemberAccess | null) {
  if (!access || access.siteAccessType === 'all') {
    return access;
  }
  return { ...access, siteIds: (await tenantSiteIds(tx, tenantId, access.siteIds)).sort((a, b) => a - b) };
}
