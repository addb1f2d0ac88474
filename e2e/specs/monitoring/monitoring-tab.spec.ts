import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { MonitoringPolicy } from '@outpost/contract/checks';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';
import { wireAgent } from '../../fixtures/wire-agent';

// The device detail's Monitoring tab (docs/product/monitoring.md#the-monitoring-tab): an agent
// sends an hour of one-minute samples (with a gap) over its socket; the tab charts CPU, memory
// and disk, shows the latest volumes, a tooltip under the pointer, and passes axe.
// The device's checks are real: a monitoring policy of a site of the spec's own gives the device
// two checks; the agent reports one failing (with its output), the other is still pending.

const tag = Date.now().toString(36).slice(-5);
const HOSTNAME = `metrics-${tag}`;
const MIN = 60_000;

test('the Monitoring tab charts the samples an agent sent, with its checks and volumes', async ({ page }) => {
  const { token } = await signInAs(page, DEMO_ADMIN);
  const auth = { authorization: `Bearer ${token}` };
  const site = await page.request.post('/api/customer/sites', {
    headers: auth,
    data: { site_name: `Metrics ${tag}`, site_code: `M${tag}`.toUpperCase() },
  });
  expect(site.status(), await site.text()).toBe(200);
  const siteId = ((await site.json()) as { data: { id: number } }).data.id;
  const created = await page.request.post('/api/customer/monitoring-policies', {
    headers: auth,
    data: {
      name: `Servers ${tag}`,
      target_type: 'site',
      site_id: siteId,
      checks: [
        { name: 'CPU load', config: { type: 'cpu', percent: 90, minutes: 5 } },
        { name: 'Print spooler', config: { type: 'service', service: 'Spooler' }, severity: 'critical' },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  const policy = ((await created.json()) as { data: MonitoringPolicy }).data;
  const agent = await wireAgent(page.request, token, HOSTNAME, { siteId }, { capabilities: ['checks'] });
  try {
    await agent.next('checks');
    await agent.sendAcked({
      type: 'check_results',
      messageId: `e2e-checks-${tag}`,
      results: [
        {
          checkId: policy.checks[0]!.id,
          state: 'failing',
          output: 'CPU at 97 % for 6 minutes\nTop process: backup.exe (61 %)',
          checkedAt: new Date().toISOString(),
        },
      ],
    });
    const now = Date.now();
    for (let i = 60; i >= 0; i--) {
      if (i > 20 && i < 30) {
        continue; // the device was away: a gap in the lines
      }
      agent.send({
        type: 'metrics',
        sampledAt: new Date(now - i * MIN).toISOString(),
        cpu: 20 + (i % 7) * 5,
        cpuMax: 40 + (i % 5) * 10,
        memory: 55 + (i % 3),
        volumes: [
          { mount: 'C:', usedPercent: 78.4, totalBytes: 256e9, freeBytes: 55e9 },
          { mount: 'D:', usedPercent: 31, totalBytes: 1e12, freeBytes: 690e9 },
        ],
      });
    }
    await expect
      .poll(async () => {
        const res = await page.request.get(`/api/customer/devices/${agent.guid}/metrics`, {
          headers: { authorization: `Bearer ${token}` },
        });
        return ((await res.json()) as { data: { points: unknown[] } }).data.points.length;
      })
      .toBe(52);

    await page.goto(`/devices/${agent.guid}?tab=monitoring`);
    await expect(page.getByRole('heading', { name: HOSTNAME })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Monitoring' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByText('CPU load')).toBeVisible();
    // other specs' organisation-wide policies may add checks of their own: these two rows are ours
    await expect(
      page.getByRole('row').filter({ hasText: 'CPU load' }).getByText('Failing', { exact: true }),
    ).toBeVisible();
    await expect(
      page.getByRole('row').filter({ hasText: 'Print spooler' }).getByText('Pending', { exact: true }),
    ).toBeVisible();
    await page.getByRole('button', { name: /CPU at 97 %/ }).click();
    await expect(page.getByText('Top process: backup.exe (61 %)')).toBeVisible();

    const cpu = page.getByTestId('metric-chart-cpu');
    await expect(
      cpu.getByRole('img', { name: /CPU over the last 24 hours: latest \d+ %, peak \d+ %/ }),
    ).toBeVisible();
    // two runs of points around the gap: two lines and two peak bands
    await expect(cpu.locator('path[fill="none"]')).toHaveCount(2);
    await expect(page.getByTestId('metric-chart-memory').locator('path[fill="none"]')).toHaveCount(2);
    await expect(page.getByTestId('metric-volumes').getByRole('meter', { name: 'C: used' })).toHaveAttribute(
      'aria-valuenow',
      '78',
    );
    // the pointer at the right edge: the latest minute's values
    const plot = cpu.locator('svg');
    // (hover scrolls the chart into view: other specs' policies may make the checks card long)
    await plot.scrollIntoViewIfNeeded();
    const box = (await plot.boundingBox())!;
    await plot.hover({ position: { x: box.width - 2, y: box.height / 2 } });
    await expect(cpu.getByRole('tooltip')).toContainText('Peak');

    await page.getByRole('radio', { name: '7 days' }).click();
    await expect(cpu.getByRole('img', { name: /over the last 7 days/ })).toBeVisible();
    await expect(cpu.locator('path[fill="none"]')).not.toHaveCount(0);

    const results = await new AxeBuilder({ page }).analyze();
    const blocking = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(blocking.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  } finally {
    agent.close();
  }
});
