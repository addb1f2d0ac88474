import { createMaintenanceWindowsService } from '../../src/modules/maintenance-windows/maintenance-windows.service';
import { createDeploymentEngine } from '../../src/modules/deployments/engine/deployment-engine';
import type { TestServer } from '../harness';
import type { ManualClock } from './engine';

// A second deployment engine on a test server's database, at a manual clock and reading the
// devices' maintenance windows: the window tests move it to the hour they need (the app's own
// engine sees the real time). Its scheduler never starts: the tests call tick().

export function windowEngine(server: TestServer, clock: ManualClock) {
  const windows = createMaintenanceWindowsService({ db: server.database.db });
  return createDeploymentEngine({
    db: server.database.db,
    commandQueue: server.app.commandQueue,
    portalHub: server.app.portalHub,
    log: server.app.log,
    options: { offlineExpiryMs: 24 * 3_600_000, schedulerIntervalMs: 60_000 },
    clock,
    windowsFor: (ex, ids) => windows.windowsFor(ex, ids),
  });
}
