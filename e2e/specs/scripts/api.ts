import type { APIRequestContext } from '@playwright/test';
import { pickDevices } from '../deployments/api';

// Starting script runs over the API (the development server's whole-script route, until the
// library's Run dialog starts them). The simulated devices print what the body's Write-Output
// lines say; `exit N` ends a run with code N and `Start-Sleep N` makes it take N seconds.

type Envelope<T> = { success: boolean; data: T; error?: string };

export async function startScriptRun(
  request: APIRequestContext,
  token: string,
  body: { name: string; body: string; device_ids: number[]; language?: string },
): Promise<{ job_id: number; devices: number }> {
  const res = await request.post('/api/customer/script-runs/dev', {
    headers: { authorization: `Bearer ${token}` },
    data: { language: 'powershell', ...body },
  });
  if (!res.ok()) {
    throw new Error(`start script run: ${res.status()} ${await res.text()}`);
  }
  return ((await res.json()) as Envelope<{ job_id: number; devices: number }>).data;
}

/** A run on `count` connected demo devices (`offset` apart from other tests' devices). */
export async function runOnDevices(
  request: APIRequestContext,
  token: string,
  name: string,
  scriptBody: string,
  count: number,
  offset: number,
) {
  const devices = await pickDevices(request, token, count, offset);
  return startScriptRun(request, token, { name, body: scriptBody, device_ids: devices.map((d) => d.id) });
}
