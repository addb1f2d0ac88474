import { describe, expect, it } from 'vitest';
import { parseLaunchdServices, parseSystemdServices, parseWindowsServices } from './services';

// Recorded output of the real commands (trimmed), so the adapters are tested on any machine.

const WINDOWS = JSON.stringify([
  { Name: 'AudioSrv', DisplayName: 'Windows Audio', State: 'Running', StartMode: 'Auto' },
  { Name: 'Fax', DisplayName: 'Fax', State: 'Stopped', StartMode: 'Manual' },
  { Name: 'RemoteRegistry', DisplayName: 'Remote Registry', State: 'Stopped', StartMode: 'Disabled' },
  { Name: 'MSSQL$SQLEXPRESS', DisplayName: 'SQL Server (SQLEXPRESS)', State: 'Paused', StartMode: 'Auto' },
  { Name: 'WSearch', DisplayName: 'Windows Search', State: 'Start Pending', StartMode: 'Auto' },
]);

const LAUNCHCTL = `PID\tStatus\tLabel
-\t0\tcom.apple.SafariHistoryServiceAgent
417\t0\tcom.apple.mDNSResponder
-\t78\tcom.apple.cupsd
1021\t0\tcom.microsoft.autoupdate.helper
`;

const SYSTEMD_UNITS = `cron.service                 loaded    active   running Regular background program processing daemon
dbus.service                 loaded    active   running D-Bus System Message Bus
networking.service           loaded    active   exited  Raise network interfaces
postgresql.service           loaded    inactive dead    PostgreSQL RDBMS
● missing.service            not-found inactive dead    missing.service
`;
const SYSTEMD_FILES = `cron.service        enabled  enabled
dbus.service        static   -
networking.service  enabled  enabled
postgresql.service  disabled enabled
`;

describe('service adapters', () => {
  it('parses Windows services (Get-CimInstance Win32_Service)', () => {
    expect(parseWindowsServices(WINDOWS)).toEqual([
      { serviceName: 'AudioSrv', displayName: 'Windows Audio', status: 'Running', startType: 'Automatic' },
      { serviceName: 'Fax', displayName: 'Fax', status: 'Stopped', startType: 'Manual' },
      {
        serviceName: 'RemoteRegistry',
        displayName: 'Remote Registry',
        status: 'Stopped',
        startType: 'Disabled',
      },
      {
        serviceName: 'MSSQL$SQLEXPRESS',
        displayName: 'SQL Server (SQLEXPRESS)',
        status: 'Paused',
        startType: 'Automatic',
      },
      {
        serviceName: 'WSearch',
        displayName: 'Windows Search',
        status: 'Start Pending',
        startType: 'Automatic',
      },
    ]);
    // ConvertTo-Json writes a lone object, not an array, for a single service
    expect(
      parseWindowsServices(
        JSON.stringify({
          Name: 'Spooler',
          DisplayName: 'Print Spooler',
          State: 'Running',
          StartMode: 'Auto',
        }),
      ),
    ).toHaveLength(1);
  });

  it('parses launchd jobs (launchctl list)', () => {
    expect(parseLaunchdServices(LAUNCHCTL)).toEqual([
      {
        serviceName: 'com.apple.SafariHistoryServiceAgent',
        displayName: 'com.apple.SafariHistoryServiceAgent',
        status: 'Stopped',
        startType: 'Automatic',
      },
      {
        serviceName: 'com.apple.mDNSResponder',
        displayName: 'com.apple.mDNSResponder',
        status: 'Running',
        startType: 'Automatic',
      },
      {
        serviceName: 'com.apple.cupsd',
        displayName: 'com.apple.cupsd',
        status: 'Stopped',
        startType: 'Automatic',
      },
      {
        serviceName: 'com.microsoft.autoupdate.helper',
        displayName: 'com.microsoft.autoupdate.helper',
        status: 'Running',
        startType: 'Manual',
      },
    ]);
  });

  it('parses systemd units with their start types', () => {
    expect(parseSystemdServices(SYSTEMD_UNITS, SYSTEMD_FILES)).toEqual([
      {
        serviceName: 'cron',
        displayName: 'Regular background program processing daemon',
        status: 'Running',
        startType: 'Automatic',
      },
      {
        serviceName: 'dbus',
        displayName: 'D-Bus System Message Bus',
        status: 'Running',
        startType: 'Manual',
      },
      {
        serviceName: 'networking',
        displayName: 'Raise network interfaces',
        status: 'Stopped',
        startType: 'Automatic',
      },
      {
        serviceName: 'postgresql',
        displayName: 'PostgreSQL RDBMS',
        status: 'Stopped',
        startType: 'Disabled',
      },
    ]);
  });
});
