import type { EnrollFacts, EnrollResult } from '@outpost/contract/agent-protocol';

type Envelope<T> = { success: boolean; data?: T; error?: string };

/** POST /api/agent/enroll; throws with the server's reason when refused. */
export async function enrollDevice(server: string, token: string, facts: EnrollFacts): Promise<EnrollResult> {
  const url = server.replace(/\/$/, '') + '/api/agent/enroll';
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, facts }),
  });
  const body = (await res.json().catch(() => ({}))) as Envelope<EnrollResult>;
  if (!res.ok || !body.data) {
    const error = new Error(body.error || `Enrolment failed: HTTP ${res.status}`) as Error & {
      status: number;
    };
    error.status = res.status;
    throw error;
  }
  return body.data;
}
