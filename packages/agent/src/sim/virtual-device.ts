import type { EnrollFacts, UserSession } from '@outpost/contract/agent-protocol';
import type { HardwareInfo, NetworkInfo, Service, SoftwareItem } from '@outpost/contract/devices';
import type { DeviceBackend } from '../agent';
import { AGENT_VERSION } from '../version';
import {
  FIRST_NAMES,
  LAST_NAMES,
  MAC_SERVICES,
  MAC_SOFTWARE,
  MAC_VERSIONS,
  MODELS,
  WINDOWS_SERVICES,
  WINDOWS_SOFTWARE,
  WINDOWS_VERSIONS,
} from './catalog';
import type { Title } from './catalog';
import type { Rng } from './rng';

// One simulated machine: a plausible, seed-determined profile plus the state that changes while
// it runs (sessions, services, free space, byte counters).

export type VirtualDevice = {
  index: number;
  facts: EnrollFacts & { machineId: string };
  hardware: HardwareInfo;
  network: NetworkInfo;
  software: SoftwareItem[];
  services: Service[];
  sessions: UserSession[];
  users: string[];
  domain: string;
};

const pad = (n: number, w: number) => String(n).padStart(w, '0');

function pickSoftware(rng: Rng, titles: readonly Title[], count: number): SoftwareItem[] {
  const optional = titles.filter((t) => !t.always);
  const chosen = [
    ...titles.filter((t) => t.always),
    ...rng.sample(optional, Math.min(count, optional.length)),
  ];
  return chosen.map((t) => {
    const installed = new Date(Date.UTC(2023, 0, 1) + rng.int(0, 540) * 86_400_000);
    return {
      name: t.name,
      displayName: t.name,
      publisher: t.publisher,
      version: rng.pick(t.versions),
      installDate: installed.toISOString().slice(0, 10),
    };
  });
}

export function createVirtualDevice(
  rng: Rng,
  index: number,
  options: { prefix: string; subnet: number },
): VirtualDevice {
  // Mostly Windows, some Macs ("Windows 10/11 and some macOS").
  const model = rng.chance(0.2)
    ? rng.pick(MODELS.filter((m) => m.os === 'macos'))
    : rng.pick(MODELS.filter((m) => m.os === 'windows'));
  const isMac = model.os === 'macos';
  const serial = model.serial(rng.hex(12));
  const hostname = isMac
    ? `${options.prefix}-MAC-${pad(index + 1, 3)}`
    : `${options.prefix}-${model.kind === 'laptop' ? 'LT' : 'WS'}-${pad(index + 1, 3)}`;
  const ip = `10.${options.subnet}.${Math.floor(index / 200) + 10}.${(index % 200) + 20}`;
  const total = rng.pick(model.disks);
  // disks near and far from full: some above 90 %, some above 75 %, most comfortable
  const usedShare = rng.chance(0.15)
    ? 0.9 + rng.next() * 0.08
    : rng.chance(0.2)
      ? 0.76 + rng.next() * 0.13
      : 0.2 + rng.next() * 0.5;
  const storageDevices = [
    {
      deviceId: isMac ? '/' : 'C:',
      mediaType: 'SSD',
      totalSize: total,
      freeSpace: Math.round(total * (1 - usedShare)),
    },
  ];
  if (!isMac && model.kind === 'desktop' && rng.chance(0.35)) {
    const data = 2000e9;
    storageDevices.push({
      deviceId: 'D:',
      mediaType: 'HDD',
      totalSize: data,
      freeSpace: Math.round(data * (0.1 + rng.next() * 0.8)),
    });
  }
  const mac = Array.from({ length: 6 }, (_, i) => (i === 0 ? '3c' : rng.hex(2))).join(':');
  const wifi = model.kind === 'laptop';
  const users = rng.sample(
    FIRST_NAMES.flatMap((f) => LAST_NAMES.map((l) => `${f}.${l}`)),
    rng.int(1, 3),
  );
  const services: Service[] = isMac
    ? MAC_SERVICES.map((s) => ({
        serviceName: s.name,
        displayName: s.name,
        status: rng.pick(s.states),
        startType: 'Automatic',
      }))
    : WINDOWS_SERVICES.filter((s) => s.name !== 'MSSQL$SQLEXPRESS' || rng.chance(0.2)).map((s) => ({
        serviceName: s.name,
        displayName: s.display,
        status: rng.pick(s.states),
        startType: s.start,
      }));
  const machineId = `${rng.hex(8)}-${rng.hex(4)}-4${rng.hex(3)}-8${rng.hex(3)}-${rng.hex(12)}`;
  return {
    index,
    domain: 'ACME',
    users,
    sessions: [],
    facts: {
      hostname,
      osType: isMac ? 'macos' : 'windows',
      osVersion: isMac ? rng.pick(MAC_VERSIONS) : rng.pick(WINDOWS_VERSIONS),
      // deterministic: simulated Macs are Apple silicon, Windows machines x64
      architecture: isMac ? 'arm64' : 'x64',
      agentVersion: AGENT_VERSION,
      serialNumber: serial,
      machineId,
      manufacturer: model.manufacturer,
      model: model.model,
      ipAddress: ip,
    },
    hardware: {
      systemInfo: { manufacturer: model.manufacturer, model: model.model },
      cpu: { name: rng.pick(model.cpus) },
      memoryModules: rng.pick(model.memory).map((capacity) => ({ capacity })),
      storageDevices,
    },
    network: {
      externalIp: `203.0.113.${rng.int(2, 250)}`,
      dnsServers: [`10.${options.subnet}.0.10`, `10.${options.subnet}.0.11`],
      interfaces: [
        {
          name: wifi ? 'Wi-Fi' : 'Ethernet',
          description: wifi ? 'Intel(R) Wi-Fi 6E AX211 160MHz' : 'Intel(R) Ethernet Connection (17) I219-LM',
          type: wifi ? 'wireless' : 'wired',
          speed: wifi ? rng.pick([866, 1201, 2402]) : 1000,
          status: 'Up',
          macAddress: mac,
          gateway: `10.${options.subnet}.0.1`,
          dhcpEnabled: true,
          ipv4Addresses: [{ address: ip, subnetMask: '255.255.0.0' }],
          ipv6Addresses: [`fe80::${rng.hex(4)}:${rng.hex(4)}:${rng.hex(4)}:${rng.hex(4)}`],
          bytesReceived: rng.int(50, 9000) * 1e6,
          bytesSent: rng.int(10, 2000) * 1e6,
        },
        ...(wifi && !isMac
          ? [
              {
                name: 'Bluetooth Network Connection',
                description: 'Bluetooth Device (Personal Area Network)',
                type: 'bluetooth',
                speed: 3,
                status: 'Disconnected',
                macAddress: Array.from({ length: 6 }, () => rng.hex(2)).join(':'),
                gateway: null,
                dhcpEnabled: true,
                ipv4Addresses: [],
                ipv6Addresses: [],
                bytesReceived: 0,
                bytesSent: 0,
              },
            ]
          : []),
      ],
    },
    software: pickSoftware(
      rng,
      isMac ? MAC_SOFTWARE : WINDOWS_SOFTWARE,
      isMac ? rng.int(6, 12) : rng.int(14, 28),
    ),
    services,
  };
}

/** The simulated machine as an agent backend. */
export function virtualBackend(device: VirtualDevice): DeviceBackend {
  return {
    hello() {
      return Promise.resolve({
        agentVersion: AGENT_VERSION,
        hostname: device.facts.hostname,
        osType: device.facts.osType,
        osVersion: device.facts.osVersion,
        architecture: device.facts.architecture,
        ipAddress: device.facts.ipAddress,
        sessions: device.sessions,
      });
    },
    inventory(kind) {
      const all = kind === 'all';
      // traffic grows between inventories
      for (const i of device.network.interfaces) {
        if (i.status === 'Up') {
          i.bytesReceived += Math.round(Math.random() * 5e6);
          i.bytesSent += Math.round(Math.random() * 1e6);
        }
      }
      const { hostname, osType, osVersion, architecture, serialNumber, manufacturer, model, ipAddress } =
        device.facts;
      return Promise.resolve({
        facts: { hostname, osType, osVersion, architecture, serialNumber, manufacturer, model, ipAddress },
        ...((all || kind === 'hardware') && { hardware: device.hardware }),
        ...((all || kind === 'network') && { network: device.network }),
        ...((all || kind === 'software') && { software: device.software }),
        ...((all || kind === 'services') && { services: device.services }),
      });
    },
  };
}

/** Service control on the simulated machine: the status changes as Windows would report it. */
export function controlVirtualService(
  device: VirtualDevice,
  serviceName: string,
  action: 'start' | 'stop' | 'restart',
) {
  const service = device.services.find((s) => s.serviceName === serviceName);
  if (!service) {
    throw new Error(`Service ${serviceName} was not found`);
  }
  service.status = action === 'stop' ? 'Stopped' : 'Running';
  return service.status;
}
