import type { FastifyBaseLogger } from 'fastify';
import type { CheckState, Severity } from '@outpost/contract/checks';
import type { HelloMessage } from '@outpost/contract/agent-protocol';
import type { Db } from '../../db/client';
import type { Executor } from '../../lib/db';
import type { DeviceRef } from '../../live/device-state';
import type { AlertEngine } from './alert-engine';
import {
  deviceFacts,
  devicesOfflineTooLong,
  failedDevicesSite,
  offlineAlertsCleared,
} from './alert-sources.queries';
import type { OfflineDevice } from './alert-sources.queries';

// Where alerts come from (docs/product/monitoring.md#alerts): a check's state, a device offline
// past its policy's threshold, a failed deployment, a halted rollout, an agent restarted after a
// crash. Each opens (or counts again) the alert of its condition key and, where the condition can
// clear, resolves it when it does.

/** A check's state that changed on a device, as the monitoring module stores it. */
export type CheckStateChange = {
  tenantId: number;
  deviceId: number;
  siteId: number | null;
  hostname: string | null;
  checkId: number;
  checkName: string;
  severity: Severity;
  state: CheckState;
  output: string | null;
};

const SEVERITY_RANK: Record<Severity, number> = { info: 0, warning: 1, critical: 2 };
const milder = (a: Severity, b: Severity) => (SEVERITY_RANK[a] <= SEVERITY_RANK[b] ? a : b);

export const checkKey = (checkId: number, deviceId: number) => `check:${checkId}:device:${deviceId}`;
export const offlineKey = (deviceId: number) => `offline:device:${deviceId}`;

/** Offline devices handled per sweep pass. */
const SWEEP_BATCH = 500;

export function createAlertSources(deps: {
  db: Db;
  engine: AlertEngine;
  log: FastifyBaseLogger;
  now: () => number;
}) {
  const { db, engine } = deps;

  /** In the transaction that stored the states: failing/warning opens, passing resolves. */
  async function checkChanges(tx: Executor, changes: CheckStateChange[]) {
    for (const c of changes) {
      const key = checkKey(c.checkId, c.deviceId);
      if (c.state === 'passing') {
        await engine.clear(tx, c.tenantId, [key]);
        continue;
      }
      // a warning is at most a warning; a failure has the check's severity
      const severity = c.state === 'warning' ? milder(c.severity, 'warning') : c.severity;
      await engine.raise(tx, {
        tenantId: c.tenantId,
        condition: 'check',
        conditionKey: key,
        title: c.state === 'warning' ? `${c.checkName} (warning)` : c.checkName,
        detail: c.output,
        severity,
        deviceId: c.deviceId,
        siteId: c.siteId,
        checkId: c.checkId,
        jobId: null,
      });
    }
  }

  async function agentCrashed(device: DeviceRef, crash: NonNullable<HelloMessage['restartedAfterCrash']>) {
    await db.transaction(async (tx) => {
      const facts = await deviceFacts(tx, device.id);
      await engine.raise(tx, {
        tenantId: device.tenantId,
        condition: 'agent_crash',
        conditionKey: `agent_crash:device:${device.id}`,
        title: 'The agent restarted after a crash',
        detail: `Crashed before ${crash.at}${crash.reason ? `: ${crash.reason}` : ''}`,
        severity: 'warning',
        deviceId: device.id,
        siteId: facts?.siteId ?? device.siteId,
        checkId: null,
        jobId: null,
      });
    });
  }

  /** A rollout halted by itself (docs/product/rollouts.md#gates): each halt is its own alert. */
  async function rolloutHalted(
    tx: Executor,
    h: {
      tenantId: number;
      jobId: number;
      jobName: string;
      reason: string;
      heldDevices: number;
      wave: number;
      at: Date;
    },
    message: { subject: string; text: string; data?: Record<string, unknown> },
  ) {
    await engine.raise(
      tx,
      {
        tenantId: h.tenantId,
        condition: 'rollout_halted',
        conditionKey: `rollout_halted:job:${h.jobId}:${h.at.getTime()}`,
        title: message.subject,
        detail: message.text,
        severity: 'critical',
        deviceId: null,
        siteId: await failedDevicesSite(tx, h.jobId),
        checkId: null,
        jobId: h.jobId,
      },
      { event: 'rollout_halted', message: { ...message, severity: 'critical' } },
    );
  }

  async function jobFailed(
    tx: Executor,
    job: { id: number; tenantId: number; name: string; failedDevices: number; totalDevices: number },
  ) {
    await engine.raise(tx, {
      tenantId: job.tenantId,
      condition: 'deployment_failed',
      conditionKey: `deployment_failed:job:${job.id}`,
      title: `Deployment failed: ${job.name}`,
      detail: `${job.failedDevices} of ${job.totalDevices} device${job.totalDevices === 1 ? '' : 's'} failed or did not run`,
      severity: 'warning',
      deviceId: null,
      siteId: await failedDevicesSite(tx, job.id),
      checkId: null,
      jobId: job.id,
    });
  }

  /** One sweep: offline alerts open past their thresholds and resolve for devices that are back. */
  async function sweepOffline(): Promise<number> {
    const now = new Date(deps.now());
    const worst = new Map<number, OfflineDevice>();
    for (const d of await devicesOfflineTooLong(db, now, SWEEP_BATCH)) {
      const known = worst.get(d.deviceId);
      if (
        !known ||
        SEVERITY_RANK[d.severity] > SEVERITY_RANK[known.severity] ||
        (d.severity === known.severity && d.minutes < known.minutes)
      ) {
        worst.set(d.deviceId, d);
      }
    }
    for (const d of worst.values()) {
      await db.transaction((tx) =>
        engine.raise(tx, {
          tenantId: d.tenantId,
          condition: 'offline',
          conditionKey: offlineKey(d.deviceId),
          title: `Offline for more than ${d.minutes} minutes`,
          detail: d.lastSeen ? `Last seen ${d.lastSeen.toISOString()}` : 'Never connected',
          severity: d.severity,
          deviceId: d.deviceId,
          siteId: d.siteId,
          checkId: null,
          jobId: null,
        }),
      );
    }
    const back = await offlineAlertsCleared(db, SWEEP_BATCH);
    for (const a of back) {
      await db.transaction((tx) => engine.clear(tx, a.tenantId, [a.conditionKey]));
    }
    return worst.size + back.length;
  }

  return { checkChanges, agentCrashed, rolloutHalted, jobFailed, sweepOffline };
}
