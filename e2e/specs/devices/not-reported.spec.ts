import { expect, test } from '@playwright/test';
import WebSocket from 'ws';
import { AGENT_DEVICE_HEADER, AGENT_PROTOCOL_VERSION } from '@outpost/contract/agent-protocol';
import type { EnrollResult } from '@outpost/contract/agent-protocol';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN, E2E_BASE_URL } from '../../fixtures/env';

// A device whose agent could not collect its software and services (no PowerShell, as on Wine)
// says so on its overview, and the note follows what the agent sends next
// (docs/decisions/2026-11-26-device-not-reported.md).

const tag = Date.now().toString(36).slice(-5);
const HOSTNAME = `no-ps-${tag}`;
const REASON = 'PowerShell is not available on this device';

test('the overview says which inventory parts were not reported, and why', async ({ page }) => {
  const { token } = await signInAs(page, DEMO_ADMIN);
  const headers = { authorization: `Bearer ${token}` };
  const created = await page.request.post('/api/customer/agents/enrollment-tokens', { headers, data: {} });
  expect(created.ok(), await created.text()).toBe(true);
  const res = await page.request.post('/api/agent/enroll', {
    data: {
      token: ((await created.json()) as { data: { token: string } }).data.token,
      facts: { hostname: HOSTNAME, osType: 'windows', osVersion: 'Windows 10 Pro', agentVersion: '1.0.0' },
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
  const creds = ((await res.json()) as { data: EnrollResult }).data;
  const ws = new WebSocket(`${E2E_BASE_URL.replace(/^http/, 'ws')}/api/agent/ws`, {
    headers: { [AGENT_DEVICE_HEADER]: creds.device_guid, authorization: `Bearer ${creds.agent_secret}` },
  });
  const received = (type: string, messageId?: string) =>
    new Promise<void>((resolve) => {
      ws.on('message', (d: Buffer) => {
        const m = JSON.parse(d.toString()) as { type: string; messageId?: string };
        if (m.type === type && (messageId === undefined || m.messageId === messageId)) {
          resolve();
        }
      });
    });
  const welcomed = received('welcome');
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  ws.send(
    JSON.stringify({
      type: 'hello',
      protocolVersion: AGENT_PROTOCOL_VERSION,
      agentVersion: '1.0.0',
      hostname: HOSTNAME,
      osType: 'windows',
      osVersion: 'Windows 10 Pro',
      sessions: [],
    }),
  );
  await welcomed;
  const inventory = async (messageId: string, parts: Record<string, unknown>) => {
    const acked = received('ack', messageId);
    ws.send(
      JSON.stringify({ type: 'inventory', messageId, collectedAt: new Date().toISOString(), ...parts }),
    );
    await acked;
  };
  try {
    await inventory(`nr-1-${tag}`, {
      notReported: [
        { kind: 'software', reason: REASON },
        { kind: 'services', reason: REASON },
      ],
    });
    await page.goto(`/devices/${creds.device_guid}`);
    await expect(page.getByRole('heading', { name: HOSTNAME })).toBeVisible();
    await expect(page.getByTestId('inventory-not-reported')).toHaveText(
      `Not reported: software, services (${REASON})`,
    );

    // the software arrives: only the services are still missing
    await inventory(`nr-2-${tag}`, {
      software: [
        { name: 'Notepad++', displayName: null, publisher: null, version: '8.6', installDate: null },
      ],
    });
    await page.reload();
    await expect(page.getByTestId('inventory-not-reported')).toHaveText(`Not reported: services (${REASON})`);
  } finally {
    ws.close(1000);
  }
});
