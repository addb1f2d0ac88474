import crypto from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type {
  CreatedEnrollmentToken,
  CreateEnrollmentTokenBody,
  EnrollmentToken,
} from '@outpost/contract/agents';
import type { EnrollBody, EnrollResult } from '@outpost/contract/agent-protocol';
import { messages } from '@outpost/contract/messages';
import type { Db } from '../../db/client';
import { auditLogs, devices, enrollmentTokens, sites, tenants } from '../../db/schema/index';
import { writeAudit } from '../../lib/audit';
import { HttpError, badRequest, notFound } from '../../lib/errors';
import { requireAdmin } from '../../plugins/auth';
import type { RequestContext } from '../../plugins/auth';
import type { Bus } from '../../live/bus';
import {
  findEnrollmentToken,
  findReEnrollingDevice,
  findTokenByHash,
  isUsableSerial,
  listEnrollmentTokens,
  tokenState,
} from './agents.queries';
import { hashSecret, newAgentSecret, newEnrollmentToken, tokenPrefixOf } from './agent-secrets';

type Meta = { ip: string; userAgent: string | null };

export const enrollCommand = (serverUrl: string, token: string) =>
  `npm run agent -- enroll --server ${serverUrl} --token ${token}`;

export function createAgentsService(db: Db, bus: Bus) {
  return {
    async createToken(
      ctx: RequestContext,
      body: CreateEnrollmentTokenBody,
      serverUrl: string,
    ): Promise<CreatedEnrollmentToken> {
      requireAdmin(ctx);
      const siteId = body.site_id ?? null;
      if (siteId !== null) {
        const [site] = await db
          .select({ id: sites.id })
          .from(sites)
          .where(and(eq(sites.id, siteId), eq(sites.tenantId, ctx.tenantId)));
        if (!site) {
          throw badRequest(messages.siteNotFound, 'SITE_NOT_FOUND');
        }
      }
      const expiresAt = body.expires_at ? new Date(body.expires_at) : null;
      const token = newEnrollmentToken();
      const id = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(enrollmentTokens)
          .values({
            tenantId: ctx.tenantId,
            name: body.name || null,
            siteId,
            tokenHash: hashSecret(token),
            tokenPrefix: tokenPrefixOf(token),
            createdBy: ctx.userId,
            createdByName: ctx.name ?? ctx.email,
            expiresAt,
          })
          .returning({ id: enrollmentTokens.id });
        await writeAudit(tx, ctx, {
          action: 'Create Enrollment Token',
          resourceType: 'enrollment_token',
          resourceId: row!.id,
          newValues: { name: body.name ?? null, site_id: siteId, expires_at: body.expires_at ?? null },
        });
        return row!.id;
      });
      const created = (await findEnrollmentToken(db, ctx.tenantId, id))!;
      return { ...created, token, enroll_command: enrollCommand(serverUrl, token) };
    },

    async listTokens(ctx: RequestContext): Promise<EnrollmentToken[]> {
      requireAdmin(ctx);
      return listEnrollmentTokens(db, ctx.tenantId);
    },

    // Devices enrolled with the token stay enrolled: revoking only stops new enrolments.
    async revokeToken(ctx: RequestContext, id: number): Promise<EnrollmentToken> {
      requireAdmin(ctx);
      const before = await findEnrollmentToken(db, ctx.tenantId, id);
      if (!before) {
        throw notFound(messages.enrollmentTokenNotFound, 'TOKEN_NOT_FOUND');
      }
      if (before.state !== 'revoked') {
        await db.transaction(async (tx) => {
          await tx
            .update(enrollmentTokens)
            .set({ revokedAt: sql`now()` })
            .where(
              and(
                eq(enrollmentTokens.id, id),
                eq(enrollmentTokens.tenantId, ctx.tenantId),
                isNull(enrollmentTokens.revokedAt),
              ),
            );
          await writeAudit(tx, ctx, {
            action: 'Revoke Enrollment Token',
            resourceType: 'enrollment_token',
            resourceId: id,
            oldValues: { state: before.state },
            newValues: { state: 'revoked' },
          });
        });
      }
      return (await findEnrollmentToken(db, ctx.tenantId, id))!;
    },

    /**
     * POST /api/agent/enroll. No session: the enrolment token is the authorisation, and it names
     * the tenant (and site). max_agents is checked under a lock on the tenant row so two agents
     * enrolling at once cannot both take the last place.
     */
    async enroll(body: EnrollBody, meta: Meta): Promise<EnrollResult> {
      const token = await findTokenByHash(db, hashSecret(body.token));
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
      const f = body.facts;
      const secret = newAgentSecret();
      const facts = {
        hostname: f.hostname,
        osType: f.osType,
        osVersion: f.osVersion,
        agentVersion: f.agentVersion,
        serialNumber: isUsableSerial(f.serialNumber) ? f.serialNumber.trim() : null,
        machineId: f.machineId || null,
        manufacturer: f.manufacturer ?? null,
        model: f.model ?? null,
        ipAddress: f.ipAddress || meta.ip,
      };
      const outcome = await db.transaction(async (tx) => {
        const [tenant] = await tx
          .select({ id: tenants.id, maxAgents: tenants.maxAgents })
          .from(tenants)
          .where(eq(tenants.id, token.tenantId))
          .for('update');
        if (!tenant) {
          throw new HttpError(401, messages.enrollTokenInvalid, 'ENROLL_TOKEN_INVALID');
        }
        const existing = await findReEnrollingDevice(tx, tenant.id, facts.machineId, facts.serialNumber);
        let device: { id: number; deviceGuid: string };
        if (existing) {
          // Re-enrolment of the same machine: same record, new secret; the old secret stops working.
          await tx
            .update(devices)
            .set({ ...facts, secretHash: hashSecret(secret), updatedAt: sql`now()` })
            .where(eq(devices.id, existing.id));
          device = existing;
        } else {
          const [{ n }] = (await tx
            .select({ n: sql<number>`count(*)::int` })
            .from(devices)
            .where(eq(devices.tenantId, tenant.id))) as [{ n: number }];
          if (tenant.maxAgents !== null && n >= tenant.maxAgents) {
            throw new HttpError(403, messages.maxAgentsReached(tenant.maxAgents), 'MAX_AGENTS_REACHED');
          }
          const [row] = await tx
            .insert(devices)
            .values({
              ...facts,
              tenantId: tenant.id,
              siteId: token.siteId,
              deviceGuid: crypto.randomUUID(),
              secretHash: hashSecret(secret),
              status: 'offline',
              enrollmentTokenId: token.id,
            })
            .returning({ id: devices.id, deviceGuid: devices.deviceGuid });
          device = row!;
        }
        await tx
          .update(enrollmentTokens)
          .set({ lastUsedAt: sql`now()`, useCount: sql`${enrollmentTokens.useCount} + 1` })
          .where(eq(enrollmentTokens.id, token.id));
        // No person acts here; the entry names the token that authorised it.
        await tx.insert(auditLogs).values({
          tenantId: tenant.id,
          userName: `Agent enrolment (${token.name ?? token.tokenPrefix})`,
          action: existing ? 'Re-enroll Device' : 'Enroll Device',
          resourceType: 'device',
          resourceId: String(device.id),
          details: `${facts.hostname} enrolled with token ${token.tokenPrefix}…`,
          newValues: JSON.stringify({ ...facts, device_guid: device.deviceGuid }),
          ipAddress: meta.ip,
          userAgent: meta.userAgent,
        });
        return { device, reused: Boolean(existing) };
      });
      if (outcome.reused) {
        await bus.publish('agent.disconnect', { deviceId: outcome.device.id, reason: 'Re-enrolled' });
      }
      return { device_guid: outcome.device.deviceGuid, agent_secret: secret, reused: outcome.reused };
    },
  };
}

export type AgentsService = ReturnType<typeof createAgentsService>;
