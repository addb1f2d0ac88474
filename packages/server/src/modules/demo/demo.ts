import type { FastifyBaseLogger } from 'fastify';
import type { Fleet } from '@outpost/agent/sim/fleet';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { seedDemoDeployments } from '../deployments/deployments.demo';
import { seedDemoActivity } from '../activity/activity.demo';
import { createLocalBlobStore } from '../files/blob-store';
import {
  findTenantIdByName,
  findUser,
  hasTags,
  listFirstSites,
  listOnlineDevices,
  listPackageIds,
} from './demo.queries';
import { demoAdminContext, seedDemoSets, seedDemoSiteWindow } from './demo-sets';
import type { DemoSetsServices } from './demo-sets';
import { DEMO_FLEET_SEED, startDemoFleet } from './demo-fleet';
import { DEMO, seedDemo } from './demo.seed';
import { seedMonitoring } from './demo-monitoring';

export type Demo = {
  /** Creates the demo tenants on an empty database (once, even with several instances starting). */
  seed(): Promise<void>;
  /**
   * Connects the simulated devices (OUTPOST_DEMO_DEVICES) to the listening server at serverUrl;
   * the first time, makes the demo's device sets through `sets`.
   */
  startFleet(serverUrl: string, sets?: DemoSetsServices): Promise<void>;
  stop(): Promise<void>;
};

/** The embedded demo (OUTPOST_DEMO=1, the default): README.md#two-commands. */
export function createDemo(config: Config, database: Database, log: FastifyBaseLogger): Demo {
  let fleet: Fleet | null = null;

  /** The demo's first site (HQ): it gets the maintenance window and the job run only inside it. */
  async function windowSite(tenantId: number) {
    const [first] = await listFirstSites(database.db, tenantId, 1);
    return first?.id ?? null;
  }

  /** Once: the first site's weeknight maintenance window (made before the history that uses it). */
  async function seedWindow(sets: DemoSetsServices) {
    const tenantId = await findTenantIdByName(database.db, DEMO.tenantName);
    const admin = tenantId === null ? null : await findUser(database.db, tenantId, DEMO.adminEmail);
    const siteId = tenantId === null ? null : await windowSite(tenantId);
    if (tenantId === null || !admin || siteId === null) {
      return;
    }
    const made = await database.exclusive(() =>
      seedDemoSiteWindow(sets, demoAdminContext(tenantId, admin), siteId),
    );
    if (made) {
      log.info('demo: created a weeknight maintenance window on the first site');
    }
  }

  /** Once, with the fleet online: a deployment history to look at (Demo). */
  async function seedHistory() {
    const tenantId = await findTenantIdByName(database.db, DEMO.tenantName);
    if (tenantId === null) {
      return;
    }
    const made = await database.exclusive(async () =>
      seedDemoDeployments(database.db, {
        tenantId,
        packageIds: await listPackageIds(database.db, tenantId),
        devices: await listOnlineDevices(database.db, tenantId, 24),
        windowSiteId: await windowSite(tenantId),
      }),
    );
    if (made) {
      log.info('demo: created a deployment history (finished, running, halted and scheduled jobs)');
    }
  }

  /** Once, with the fleet online: tags, a custom field, two groups (one with a window) and a policy (demo-sets.ts). */
  async function seedSets(sets: DemoSetsServices) {
    const tenantId = await findTenantIdByName(database.db, DEMO.tenantName);
    const admin = tenantId === null ? null : await findUser(database.db, tenantId, DEMO.adminEmail);
    if (tenantId === null || !admin) {
      return;
    }
    const made = await database.exclusive(async () => {
      if (await hasTags(database.db, tenantId)) {
        return false;
      }
      const online = await listOnlineDevices(database.db, tenantId, 24);
      const [packageId] = await listPackageIds(database.db, tenantId);
      await seedDemoSets(sets, demoAdminContext(tenantId, admin), {
        deviceIds: online.map((d) => d.id),
        packageId: packageId ?? null,
      });
      return true;
    });
    if (made) {
      log.info('demo: created tags, a custom field, two groups and a weekly policy');
    }
  }

  /**
   * On the first start: 30 days of activity before each simulated device first connected, by its
   * working-day plan in its site's time zone, so the activity screens have history.
   */
  async function seedActivity(running: Fleet) {
    const tenantId = await findTenantIdByName(database.db, DEMO.tenantName);
    if (tenantId === null) {
      return;
    }
    const { historyEvents } = await import('@outpost/agent/sim/workday');
    const { workdayDeviceOf } = await import('@outpost/agent/sim/fleet');
    const from = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 30 * 86_400_000;
    const filled = await database.exclusive(() =>
      seedDemoActivity(database.db, {
        tenantId,
        devices: running.agents.map((a) => ({
          deviceGuid: a.deviceGuid,
          history: (to, ip) => historyEvents(workdayDeviceOf(a), DEMO_FLEET_SEED, { from, to }, ip),
        })),
      }),
    );
    if (filled > 0) {
      log.info(`demo: back-filled 30 days of device activity for ${filled} devices`);
    }
  }

  return {
    async seed() {
      const blobStore = createLocalBlobStore(config.blobDir);
      const created = await database.exclusive(() => seedDemo(database.db, { blobStore }));
      if (created) {
        log.info('created the demo tenants "Acme Corp" and "Globex" (sign in as admin@acme.example)');
      }
    },
    async startFleet(serverUrl, sets) {
      if (config.demoDevices === 0) {
        return;
      }
      fleet = await startDemoFleet(database.db, {
        serverUrl,
        devices: config.demoDevices,
        dataDir: config.dataDir,
        failureRate: config.demoFailureRate,
        faults: config.demoFaults ?? null,
      });
      if (fleet) {
        // Each simulated device connects as soon as it is enrolled; the history is made from the
        // devices online, so wait (bounded) until every one has been welcomed once.
        await connectedOnce(fleet, 15_000);
        log.info(`demo: ${fleet.agents.length} simulated devices connected (OUTPOST_DEMO_DEVICES)`);
        if (sets) {
          await seedWindow(sets);
        }
        await seedHistory();
        await seedActivity(fleet);
        if (sets) {
          await seedSets(sets);
        }
        if (sets?.monitoring) {
          await seedMonitoring(database, log, sets.monitoring, serverUrl);
        }
      }
    },
    async stop() {
      await fleet?.stop();
    },
  };
}

/** Resolves when every agent of the fleet has been connected once, or after `ms` at the latest. */
function connectedOnce(fleet: Fleet, ms: number): Promise<void> {
  return new Promise((resolve) => {
    let waiting = fleet.agents.length;
    const timer = setTimeout(resolve, ms);
    timer.unref();
    const one = () => {
      waiting--;
      if (waiting <= 0) {
        clearTimeout(timer);
        resolve();
      }
    };
    if (waiting === 0) {
      one();
    }
    for (const { agent } of fleet.agents) {
      if (agent.connection.state === 'connected') {
        one();
        continue;
      }
      const off = agent.connection.onState((state) => {
        if (state === 'connected') {
          off();
          one();
        }
      });
    }
  });
}
