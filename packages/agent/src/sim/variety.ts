import type { SimulatedAgent } from './simulated-agent';
import type { VirtualDevice } from './virtual-device';
import type { Logger } from '../connection';
import { simSessionId } from './workday';

// Demo variety: so that every status, filter and badge can be seen in the embedded
// demo, a fixed share of the fleet starts in a state other than "online": a few machines are
// switched off after their first report (offline, with inventory and a last-seen time), a couple
// report an agent fault (error), and about a third have a user signed in (loggedin). The choice
// depends only on the device's index, so the same demo looks the same every time.

const FAULTS = [
  'Disk C: reports reallocated sectors (SMART warning); the agent paused inventory of that disk.',
  'The Windows Management Instrumentation service does not answer; hardware inventory is stale.',
];

export const isSwitchedOff = (index: number) => index % 8 === 5;
export const faultOf = (index: number) =>
  index % 11 === 3 ? FAULTS[Math.floor(index / 11) % FAULTS.length]! : null;
export const startsLoggedIn = (index: number) => index % 3 === 0 && !isSwitchedOff(index) && !faultOf(index);

export function applyDemoVariety(agents: SimulatedAgent[], log?: Logger): { stop(): void } {
  const reported = new WeakSet<object>();
  const tick = () => {
    for (const a of agents) {
      const i = a.device.index;
      if (a.agent.connection.state !== 'connected') {
        continue;
      }
      const fault = faultOf(i);
      // a fault is reported again on every new connection (a reconnect clears it on the server)
      if (fault && !reported.has(a.agent.connection)) {
        reported.add(a.agent.connection);
        a.agent.reportFault(true, fault);
      }
    }
  };
  const timer = setInterval(tick, 2_000);
  timer.unref();
  const initial: NodeJS.Timeout[] = [];
  for (const a of agents) {
    const i = a.device.index;
    if (startsLoggedIn(i) && a.device.sessions.length === 0) {
      const user = `${a.device.domain}\\${a.device.users[0]}`;
      const at = new Date().toISOString();
      const session = {
        sessionId: `${simSessionId(`${a.device.facts.machineId}-${Date.now()}`)}-boot`,
        userName: user,
        ipAddress: a.device.facts.ipAddress ?? null,
        startedAt: at,
      };
      a.device.sessions = [session];
      a.agent.reportActivity([
        {
          eventType: 'login',
          userName: user,
          sessionId: session.sessionId,
          ipAddress: session.ipAddress,
          timestamp: at,
        },
      ]);
    }
    if (isSwitchedOff(i)) {
      // off once its first inventory is in, and it stays off until someone powers it on
      initial.push(
        setTimeout(() => {
          a.power
            ?.powerOff('shutdown')
            .then(() => a.power?.cancel())
            .catch((err: unknown) => log?.warn('demo power-off failed', { err: String(err) }));
        }, 3_000),
      );
    }
  }
  tick();
  return {
    stop() {
      clearInterval(timer);
      initial.forEach(clearTimeout);
    },
  };
}

// A developer workstation carries the long tail of runtimes, SDK parts and redistributables that
// real Windows machines collect, so the demo's software view has several pages to search.
const COMPONENT_FAMILIES: readonly {
  name: (v: string) => string;
  publisher: string;
  versions: readonly string[];
}[] = [
  {
    name: (v) => `Microsoft Visual C++ ${v} Redistributable (x64)`,
    publisher: 'Microsoft Corporation',
    versions: ['2008', '2010', '2012', '2013', '2015-2022'],
  },
  {
    name: (v) => `Microsoft Visual C++ ${v} Redistributable (x86)`,
    publisher: 'Microsoft Corporation',
    versions: ['2008', '2010', '2012', '2013', '2015-2022'],
  },
  {
    name: (v) => `Microsoft .NET Runtime - ${v} (x64)`,
    publisher: 'Microsoft Corporation',
    versions: ['6.0.29', '7.0.18', '8.0.4'],
  },
  {
    name: (v) => `Microsoft ASP.NET Core ${v} Shared Framework (x64)`,
    publisher: 'Microsoft Corporation',
    versions: ['6.0.29', '7.0.18', '8.0.4'],
  },
  {
    name: (v) => `Microsoft Windows Desktop Runtime - ${v} (x64)`,
    publisher: 'Microsoft Corporation',
    versions: ['6.0.29', '8.0.4'],
  },
  {
    name: (v) => `Microsoft .NET SDK ${v} (x64)`,
    publisher: 'Microsoft Corporation',
    versions: ['6.0.421', '7.0.408', '8.0.204'],
  },
  {
    name: (v) => `Windows SDK ${v}`,
    publisher: 'Microsoft Corporation',
    versions: [
      'AddOn',
      'Desktop Headers x64',
      'Desktop Headers x86',
      'Desktop Libs x64',
      'Desktop Libs x86',
      'Desktop Tools x64',
      'Signing Tools',
      'DirectX x64 Remote',
      'EULA',
      'Modern Versioned Developer Tools',
    ],
  },
  {
    name: (v) => `Windows App Certification Kit ${v}`,
    publisher: 'Microsoft Corporation',
    versions: ['Native Components', 'Supplemental x64', 'x64'],
  },
  {
    name: (v) => `Universal CRT ${v}`,
    publisher: 'Microsoft Corporation',
    versions: ['Extension SDK', 'Headers Libraries and Sources', 'Redistributable', 'Tools x64', 'Tools x86'],
  },
  {
    name: (v) => `vs_${v}`,
    publisher: 'Microsoft Corporation',
    versions: [
      'BlendMsi',
      'clickoncebootstrappermsi',
      'communitymsi',
      'CoreEditorFonts',
      'devenvsharedmsi',
      'filehandler_amd64',
      'filetracker',
      'githubprotocolhandlermsi',
      'minshellinteropmsi',
      'vswebprotocolselectormsi',
    ],
  },
  {
    name: (v) => `Python ${v} (64-bit)`,
    publisher: 'Python Software Foundation',
    versions: ['3.10.11', '3.11.9', '3.12.3'],
  },
  {
    name: (v) => `Python ${v} Core Interpreter (64-bit)`,
    publisher: 'Python Software Foundation',
    versions: ['3.11.9', '3.12.3'],
  },
  {
    name: (v) => `Python ${v} Standard Library (64-bit)`,
    publisher: 'Python Software Foundation',
    versions: ['3.11.9', '3.12.3'],
  },
  { name: (v) => `Node.js ${v}`, publisher: 'Node.js Foundation', versions: ['18.20.2', '20.12.2'] },
  { name: (v) => `Git ${v}`, publisher: 'The Git Development Community', versions: ['2.44.0'] },
  { name: (v) => `Docker Desktop ${v}`, publisher: 'Docker Inc.', versions: ['4.29.0'] },
  {
    name: (v) => `JetBrains ${v}`,
    publisher: 'JetBrains s.r.o.',
    versions: ['Rider 2024.1', 'DataGrip 2024.1', 'Toolbox'],
  },
  {
    name: (v) => `Intel(R) ${v}`,
    publisher: 'Intel Corporation',
    versions: [
      'Management Engine Components',
      'Serial IO',
      'Chipset Device Software',
      'Graphics Driver',
      'Wireless Bluetooth(R)',
      'PROSet/Wireless Software',
      'Rapid Storage Technology',
    ],
  },
  {
    name: (v) => `Realtek ${v}`,
    publisher: 'Realtek Semiconductor Corp.',
    versions: ['Audio Driver', 'Card Reader', 'Ethernet Controller Driver'],
  },
  {
    name: (v) => `Microsoft ${v}`,
    publisher: 'Microsoft Corporation',
    versions: [
      'Update Health Tools',
      'Edge WebView2 Runtime',
      'ODBC Driver 17 for SQL Server',
      'ODBC Driver 18 for SQL Server',
      'SQL Server Management Studio - 20.1',
      'System CLR Types for SQL Server 2019',
      'OLE DB Driver for SQL Server',
      'Azure CLI',
      'PowerToys (Preview) x64',
      'GameInput',
      'Windows Performance Toolkit',
    ],
  },
  { name: (v) => `PowerShell ${v}`, publisher: 'Microsoft Corporation', versions: ['7.4.2.0-x64'] },
  { name: (v) => `Postman ${v}`, publisher: 'Postman', versions: ['x64 11.0.7'] },
  { name: (v) => `WinMerge ${v}`, publisher: 'Thingamahoochie Software', versions: ['2.16.40.0 x64'] },
  { name: (v) => `Wireshark ${v}`, publisher: 'The Wireshark developer community', versions: ['4.2.4 x64'] },
  { name: (v) => `Npcap ${v}`, publisher: 'Nmap Project', versions: ['1.79'] },
];

const VC_BUILDS: Record<string, string> = {
  '2008': '9.0.30729.6161',
  '2010': '10.0.40219',
  '2012': '11.0.61030',
  '2013': '12.0.40664',
  '2015-2022': '14.38.33135',
};

function componentVersion(v: string, family: number): string {
  return VC_BUILDS[v] ?? /\d+(\.\d+)+/.exec(v)?.[0] ?? `10.1.22621.${3233 + family}`;
}

export const isDeveloperWorkstation = (index: number) => index === 0;

/** Shapes a device before its agent starts (its first inventory already reports this). */
export function shapeDemoDevice(device: VirtualDevice): void {
  if (!isDeveloperWorkstation(device.index) || device.facts.osType !== 'windows') {
    return;
  }
  const have = new Set(device.software.map((s) => s.name));
  for (const [f, family] of COMPONENT_FAMILIES.entries()) {
    for (const [k, v] of family.versions.entries()) {
      const name = family.name(v);
      if (have.has(name)) {
        continue;
      }
      const day = new Date(Date.UTC(2023, 2, 1) + ((f * 37 + k * 11) % 420) * 86_400_000);
      device.software.push({
        name,
        displayName: name,
        publisher: family.publisher,
        version: componentVersion(v, f),
        installDate: day.toISOString().slice(0, 10),
      });
    }
  }
}
