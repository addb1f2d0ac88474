import crypto from 'node:crypto';
import type {
  CreatedEnrollmentToken,
  CreateEnrollmentTokenBody,
  EnrollmentToken,
} from '@outpost/contract/agents';
import type { EnrollBody, EnrollResult } from '@outpost/contract/agent-protocol';
import { accessMessages, messages } from '@outpost/contract/messages';
import { deviceArchitecture } from '@outpost/contract/targets';
import type { Db } from '../../db/client';
import { systemActor, writeAudit } from '../../lib/audit';
import type { Executor } from '../../lib/db';
import { HttpError, badRequest, forbidden, notFound } from '../../lib/errors';
import { canSeeSite, isSiteLimited, tenantOnly } from '../../lib/scope';
import { isUsableSerial } from '../../lib/device-identity';
import { requireAdmin } from '../../lib/context';
import type { RequestContext } from '../../lib/context';
import type { Bus } from '../../live/bus';
import {
  countEnrolledDevices,
  findClaimedDevice,
  findEnrollmentToken,
  findTenantSite,
  findTokenByHash,
  insertEnrollmentToken,
  listEnrollmentTokens,
  findTenantForEnrolment,
  lockTenantForEnrolment,
  markTokenUsed,
  revokeEnrollmentToken,
  tokenState,
} from './agents.queries';
import { isUuid } from '../../lib/uuid';
import { shellInstallCommand } from '../agent-releases/install-scripts';
import { createEnrolledDevice, refreshReEnrolledDevice } from '../devices/device-enrolment.service';
import {
  hashSecret,
  newAgentSecret,
  newEnrollmentToken,
  secretMatches,
  tokenPrefixOf,
} from './agent-secrets';
import { emitEvent } from '../../lib/events';

type Meta = { ip: string; userAgent: string | null };
type TokenRecord = NonNullable<Awaited<ReturnType<typeof findTokenByHash>>>;

/** The one-line install (Linux and macOS; the Install Agent dialog also shows Windows's). */
export const enrollCommand = (serverUrl: string, token: string) =>
  shellInstallCommand(serverUrl).replace(/TOKEN$/, token);

/** The enrolment token, if it may enrol now; otherwise the reason, as a 401. */
function usableToken(token: TokenRecord | null): TokenRecord {
  if (!token) {
    throw new HttpError(401, messages.enrollTokenInvalid, 'ENROLL_TOKEN_INVALID');
  }
  const state = tokenState(token);
  if (state === 'revoked') {
    throw new HttpError(401, messages.enrollTokenRevoked, 'ENROLL_TOKEN_REVOKED');
  }
  if (state === 'expired') {
    throw new HttpError(401, messages.enrollTokenExpired, 'ENROLL_TOKEN_EXPIRED');
  }
  return token;
}

/**
 * The device record an agent proves it holds: the guid it presents, in the token's tenant, with
 * the secret that device was given. Anything less (a serial number, a machine id, a guid without
 * its secret) proves nothing, so the agent is enrolled as a new device.
 */
async function provenDevice(tx: Executor, tenantId: number, body: EnrollBody) {
  const guid = body.device_guid?.toLowerCase();
  if (!guid || !body.agent_secret || !isUuid(guid)) {
    return null;
  }
  const claimed = await findClaimedDevice(tx, tenantOnly(tenantId), guid);
  return claimed && secretMatches(body.agent_secret, claimed.secretHash) ? claimed : null;
}

/**
 * POST /api/agent/enroll. No session: the enrolment token is the authorisation, and it names
 * the tenant and the site. A new enrolment is always a new device with a new guid; the record
 * is kept only for an agent that proves its current guid and secret (a reinstall that kept
 * its configuration). max_agents is checked under a lock on the tenant row so two agents
 * enrolling at once cannot both take the last place.
 */
async function enrollAgent(
  { db, bus, onDevicesChanged }: AgentsServiceDeps,
  body: EnrollBody,
  meta: Meta,
): Promise<EnrollResult> {
  const token = usableToken(await findTokenByHash(db, hashSecret(body.token)));
  const f = body.facts;
  const secret = newAgentSecret();
  const facts = {
    hostname: f.hostname,
    osType: f.osType,
    osVersion: f.osVersion,
    architecture: deviceArchitecture(f.architecture),
    agentVersion: f.agentVersion,
    serialNumber: isUsableSerial(f.serialNumber) ? f.serialNumber.trim() : null,
    machineId: f.machineId || null,
    manufacturer: f.manufacturer ?? null,
    model: f.model ?? null,
    ipAddress: f.ipAddress || meta.ip,
  };
  const outcome = await db.transaction(async (tx) => {
    const tenant = await findTenantForEnrolment(tx, token.tenantId);
    if (!tenant) {
      throw new HttpError(401, messages.enrollTokenInvalid, 'ENROLL_TOKEN_INVALID');
    }
    const proven = await provenDevice(tx, tenant.id, body);
    let device: { id: number; deviceGuid: string };
    if (proven) {
      // The same agent again: same record, new secret; the old secret stops working. The
      // token's site applies when it names one.
      await refreshReEnrolledDevice(tx, proven.id, {
        ...facts,
        siteId: token.siteId ?? proven.siteId,
        secretHash: hashSecret(secret),
      });
      device = proven;
    } else {
      // Only a tenant with a limit is locked and counted: a count of every device under a
      // tenant-wide lock made each enrolment slower than the last and allowed one at a time
      // (about 15 a second at a few hundred devices on a busy machine; bench/fleet.ts).
      if (tenant.maxAgents !== null) {
        const locked = await lockTenantForEnrolment(tx, tenant.id);
        const enrolled = await countEnrolledDevices(tx, tenantOnly(tenant.id));
        if (locked?.maxAgents != null && enrolled >= locked.maxAgents) {
          throw new HttpError(403, messages.maxAgentsReached(locked.maxAgents), 'MAX_AGENTS_REACHED');
        }
      }
      device = await createEnrolledDevice(tx, {
        ...facts,
        tenantId: tenant.id,
        siteId: token.siteId,
        deviceGuid: crypto.randomUUID(),
        secretHash: hashSecret(secret),
        status: 'offline',
        enrollmentTokenId: token.id,
      });
    }
    // No person acts here; the entry names the token that authorised it.
    const actor = systemActor({
      tenantId: tenant.id,
      name: `Agent enrolment (${token.name ?? token.tokenPrefix})`,
      ip: meta.ip,
      userAgent: meta.userAgent,
    });
    await writeAudit(tx, actor, {
      // the product's audit vocabulary (docs/product/activity.md#audit-log): a new device is created, a proven
      // re-enrolment updates the device it already was
      action: proven ? 'Update Device' : 'Create Device',
      resourceType: 'device',
      resourceId: device.id,
      details: `${facts.hostname} ${proven ? 're-enrolled' : 'enrolled'} with token ${token.tokenPrefix}…`,
      newValues: { ...facts, site_id: token.siteId, device_guid: device.deviceGuid },
      siteIds: [proven ? (token.siteId ?? proven.siteId) : token.siteId],
    });
    // docs/product/webhooks.md#events: a re-enrolment is the same device enrolled again
    await emitEvent(
      tx,
      tenant.id,
      'device.enrolled',
      {
        device_id: device.id,
        device_guid: device.deviceGuid,
        hostname: facts.hostname,
        site_id: proven ? (token.siteId ?? proven.siteId) : token.siteId,
        re_enrolled: Boolean(proven),
      },
      `device:${device.id}:enrolled:${crypto.randomUUID()}`,
    );
    // Last: the token row stays locked (its use count) only until the commit that follows.
    await markTokenUsed(tx, token.id);
    return { device, reused: proven !== null, tenantId: tenant.id };
  });
  // the device's dynamic groups (docs/product/device-sets.md#groups): its facts are new
  await onDevicesChanged?.(outcome.tenantId, [outcome.device.id]);
  if (outcome.reused) {
    await bus.publish('agent.disconnect', { deviceId: outcome.device.id, reason: 'Re-enrolled' });
  }
  return { device_guid: outcome.device.deviceGuid, agent_secret: secret, reused: outcome.reused };
}

export type AgentsServiceDeps = {
  db: Db;
  bus: Bus;
  /** told of an enrolled device (the groups' membership); must not throw */
  onDevicesChanged?: (tenantId: number, deviceIds: number[]) => Promise<void>;
};

export function createAgentsService(deps: AgentsServiceDeps) {
  const { db } = deps;
  return {
    /** A site-limited administrator creates tokens only for one of their sites. */
    async createToken(
      ctx: RequestContext,
      body: CreateEnrollmentTokenBody,
      serverUrl: string,
    ): Promise<CreatedEnrollmentToken> {
      requireAdmin(ctx);
      const siteId = body.site_id ?? null;
      if (siteId !== null && !(await findTenantSite(db, ctx, siteId))) {
        throw badRequest(messages.siteNotFound, 'SITE_NOT_FOUND');
      }
      if (isSiteLimited(ctx) && !canSeeSite(ctx, siteId)) {
        throw forbidden(accessMessages.tokenSiteOutsideScope, 'SITE_OUTSIDE_SCOPE');
      }
      const token = newEnrollmentToken();
      const id = await db.transaction(async (tx) => {
        const tokenId = await insertEnrollmentToken(tx, {
          tenantId: ctx.tenantId,
          name: body.name || null,
          siteId,
          tokenHash: hashSecret(token),
          tokenPrefix: tokenPrefixOf(token),
          createdBy: ctx.userId,
          createdByName: ctx.name ?? ctx.email,
          expiresAt: body.expires_at ? new Date(body.expires_at) : null,
        });
        await writeAudit(tx, ctx, {
          action: 'Create Enrollment Token',
          resourceType: 'enrollment_token',
          resourceId: tokenId,
          newValues: { name: body.name ?? null, site_id: siteId, expires_at: body.expires_at ?? null },
          siteIds: [siteId],
        });
        return tokenId;
      });
      const created = await findEnrollmentToken(db, ctx, id);
      if (!created) {
        throw new Error(`enrolment token ${id} vanished after its insert`);
      }
      return { ...created, token, enroll_command: enrollCommand(serverUrl, token) };
    },

    async listTokens(ctx: RequestContext): Promise<EnrollmentToken[]> {
      requireAdmin(ctx);
      return listEnrollmentTokens(db, ctx);
    },

    // Devices enrolled with the token stay enrolled: revoking only stops new enrolments. A token
    // outside the caller's sites is not found, the same as a missing one.
    async revokeToken(ctx: RequestContext, id: number): Promise<EnrollmentToken> {
      requireAdmin(ctx);
      const before = await findEnrollmentToken(db, ctx, id);
      if (!before) {
        throw notFound(messages.enrollmentTokenNotFound, 'TOKEN_NOT_FOUND');
      }
      if (before.state !== 'revoked') {
        await db.transaction(async (tx) => {
          await revokeEnrollmentToken(tx, ctx, id);
          await writeAudit(tx, ctx, {
            action: 'Revoke Enrollment Token',
            resourceType: 'enrollment_token',
            resourceId: id,
            oldValues: { state: before.state },
            newValues: { state: 'revoked' },
            siteIds: [before.site_id],
          });
        });
      }
      const after = await findEnrollmentToken(db, ctx, id);
      if (!after) {
        throw notFound(messages.enrollmentTokenNotFound, 'TOKEN_NOT_FOUND');
      }
      return after;
    },

    /**
     * POST /api/agent/enroll. No session: the enrolment token is the authorisation, and it names
     * the tenant and the site. A new enrolment is always a new device with a new guid; the record
     * is kept only for an agent that proves its current guid and secret (a reinstall that kept
     * its configuration). max_agents is checked under a lock on the tenant row so two agents
     * enrolling at once cannot both take the last place.
     */
    async enroll(body: EnrollBody, meta: Meta): Promise<EnrollResult> {
      return enrollAgent(deps, body, meta);
    },
  };
}

export type AgentsService = ReturnType<typeof createAgentsService>;

export type { NewEnrollmentToken } from './agents.queries';
/** Replaces the tenant's enrolment tokens whose name starts with the prefix (the demo fleet's own). */
export { replaceEnrollmentTokens } from './agents.queries';
