import type { APIRequestContext } from '@playwright/test';
import type {
  DeviceListItem,
  DeviceListResponse,
  Device,
  SoftwareListResponse,
} from '@outpost/contract/devices';
import type { DeviceActionListResponse } from '@outpost/contract/device-actions';

// Reading the demo fleet over the API, so tests pick devices the way they really are right now.

type Envelope<T> = { success: boolean; data: T };

export async function apiGet<T>(
  request: APIRequestContext,
  token: string,
  path: string,
  baseURL = '',
): Promise<T> {
  const res = await request.get(`${baseURL}${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok()) {
    throw new Error(`GET ${path}: ${res.status()} ${await res.text()}`);
  }
  return ((await res.json()) as Envelope<T>).data;
}

export async function listDevices(request: APIRequestContext, token: string, query = '', baseURL = '') {
  return (
    await apiGet<DeviceListResponse>(request, token, `/api/customer/devices?limit=100&${query}`, baseURL)
  ).data;
}

export async function getDevice(request: APIRequestContext, token: string, id: number | string) {
  return apiGet<Device>(request, token, `/api/customer/devices/${id}`);
}

export async function softwareTotal(request: APIRequestContext, token: string, guid: string) {
  return (await apiGet<SoftwareListResponse>(request, token, `/api/customer/devices/${guid}/software`)).total;
}

export async function deviceActions(request: APIRequestContext, token: string, deviceId: number) {
  return (
    await apiGet<DeviceActionListResponse>(
      request,
      token,
      `/api/customer/deployments/device-actions/list?device_id=${deviceId}`,
    )
  ).data;
}

/**
 * The demo switches a few machines off right after their first report (packages/agent/src/sim/
 * variety.ts: device index % 8 === 5, hostnames ending 006, 014, 022); they still read online
 * during the server's presence grace. Tests that act on a device leave those alone.
 */
export const isSwitchedOffInDemo = (d: Pick<DeviceListItem, 'hostname'>) => {
  const n = Number(/(\d{3})$/.exec(d.hostname ?? '')?.[1] ?? NaN);
  return Number.isFinite(n) && (n - 1) % 8 === 5;
};

/** Connected demo devices that stay connected, in list order. */
export async function onlineDevices(request: APIRequestContext, token: string): Promise<DeviceListItem[]> {
  return (await listDevices(request, token, 'status=online')).filter((d) => !isSwitchedOffInDemo(d));
}
