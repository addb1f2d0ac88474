import type { Db } from '../../db/client';
import { secretMatches } from './agent-secrets';
import { findAgentCredentials } from './agents.queries';
import { isUuid } from '../../lib/uuid';

// Agent authentication for WS /api/agent/ws (docs/product/agent-protocol.md): the device guid and its secret.
// One indexed lookup and one sha256, cheap enough to run before any rate budget is charged.

export type AuthenticatedAgent = { id: number; tenantId: number; siteId: number | null; deviceGuid: string };

/** The device these credentials prove, or null for an unknown guid or a wrong secret. */
export async function authenticateAgent(
  db: Db,
  deviceGuid: string,
  secret: string,
): Promise<AuthenticatedAgent | null> {
  if (!isUuid(deviceGuid) || !secret) {
    return null;
  }
  const row = await findAgentCredentials(db, deviceGuid.toLowerCase());
  if (!row || !secretMatches(secret, row.secretHash)) {
    return null;
  }
  return { id: row.id, tenantId: row.tenantId, siteId: row.siteId, deviceGuid: row.deviceGuid };
}
