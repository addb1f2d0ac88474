import type { EnrollFacts, EnrollResult } from '@outpost/contract/agent-protocol';

type Envelope<T> = { success: boolean; data?: T; error?: string };

/** A refused enrolment: the HTTP status, and the server's Retry-After when it sent one. */
export type EnrollError = Error & { status: number; retryAfter: string | null };

/** The identity an agent already holds; presenting it is how a re-enrolment keeps its record. */
export type AgentIdentity = { deviceGuid: string; agentSecret: string };

/**
 * POST /api/agent/enroll; throws with the server's reason when refused. With `identity` (an agent
 * whose configuration survived, e.g. a reinstall) the server keeps the device record when the
 * guid and secret still match it; without one, or when they no longer match, it enrols a new device.
 */
export async function enrollDevice(
  server: string,
  token: string,
  facts: EnrollFacts,
  identity?: AgentIdentity | null,
): Promise<EnrollResult> {
  const url = server.replace(/\/$/, '') + '/api/agent/enroll';
  const body = {
    token,
    facts,
    ...(identity && { device_guid: identity.deviceGuid, agent_secret: identity.agentSecret }),
  };
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const parsed = (await res.json().catch(() => ({}))) as Envelope<EnrollResult>;
  if (!res.ok || !parsed.data) {
    const error = new Error(parsed.error || `Enrolment failed: HTTP ${res.status}`) as EnrollError;
    error.status = res.status;
    error.retryAfter = res.headers.get('retry-after');
    throw error;
  }
  return parsed.data;
}
