import type { APIRequestContext } from '@playwright/test';
import type { DeploymentJob, DeploymentJobDetail } from '@outpost/contract/deployments';
import type { DeviceListItem } from '@outpost/contract/devices';
import { onlineDevices } from '../devices/api';

// Setting deployments up over the API. The simulated devices run CMD steps as their command says:
// `exit N` ends a step with exit code N and `sleep N` makes it take N seconds (agent sim), so the
// outcome of every test is decided by its package, not by chance.

type Envelope<T> = { success: boolean; data: T; error?: string };

export type CmdStep = { name: string; command: string; failOnError?: boolean; retries?: number };

const headers = (token: string) => ({ authorization: `Bearer ${token}` });

export const uniqueName = (prefix: string) => `${prefix} ${Date.now().toString(36)}`;

export async function createCmdPackage(
  request: APIRequestContext,
  token: string,
  name: string,
  steps: CmdStep[],
  targetOs: 'windows' | 'linux' = 'windows',
) {
  const res = await request.post('/api/customer/deployment-packages', {
    headers: headers(token),
    data: { name, target_os: targetOs },
  });
  if (!res.ok()) {
    throw new Error(`create package: ${res.status()} ${await res.text()}`);
  }
  const id = ((await res.json()) as Envelope<{ id: number }>).data.id;
  for (const step of steps) {
    const added = await request.post(`/api/customer/deployment-packages/${id}/steps`, {
      headers: headers(token),
      data: {
        step_name: step.name,
        step_type: 'CMD',
        step_details: JSON.stringify({ command: step.command }),
        fail_deployment_on_error: step.failOnError ?? true,
        retry_count: step.retries ?? 0,
        timeout_seconds: 300,
      },
    });
    if (!added.ok()) {
      throw new Error(`add step: ${added.status()} ${await added.text()}`);
    }
  }
  return id;
}

export async function createJob(
  request: APIRequestContext,
  token: string,
  body: { package_id: number; device_ids: number[]; job_name: string },
): Promise<DeploymentJob> {
  const res = await request.post('/api/customer/deployments', { headers: headers(token), data: body });
  if (!res.ok()) {
    throw new Error(`create deployment: ${res.status()} ${await res.text()}`);
  }
  return ((await res.json()) as Envelope<DeploymentJob>).data;
}

export async function getJob(
  request: APIRequestContext,
  token: string,
  id: number,
): Promise<DeploymentJobDetail> {
  const res = await request.get(`/api/customer/deployments/${id}`, { headers: headers(token) });
  return ((await res.json()) as Envelope<DeploymentJobDetail>).data;
}

/**
 * Connected demo Windows devices for a test to deploy to (createCmdPackage makes Windows packages,
 * which reach only Windows devices): from the end of the list (the device-list tests restart the
 * first ones), `offset` apart so tests do not share devices.
 */
export async function pickDevices(
  request: APIRequestContext,
  token: string,
  count: number,
  offset = 0,
): Promise<DeviceListItem[]> {
  const online = (await onlineDevices(request, token)).filter(
    (d) => (d.status === 'online' || d.status === 'loggedin') && d.os_type === 'windows',
  );
  const end = online.length - offset;
  const picked = online.slice(Math.max(0, end - count), end);
  if (picked.length < count) {
    throw new Error(`the demo has ${online.length} connected devices; ${count} needed at offset ${offset}`);
  }
  return picked;
}
