import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import si from 'systeminformation';
import type { UserSession } from '@outpost/contract/agent-protocol';
import type { HardwareInfo, NetworkInfo, NetworkInterface } from '@outpost/contract/devices';
import type { Architecture } from '@outpost/contract/targets';
import { PROBE_TIMEOUT_MS, bounded, boundedOr } from './bounded';
import { tryExec } from './exec';

// This machine's facts, hardware and network through systeminformation (docs/product/devices.md#device-fields shapes).

const GB = 1024 ** 3;
const clean = (v: string | null | undefined) => (v && v.trim() && v.trim() !== '-' ? v.trim() : null);

export function osTypeOf(platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? 'windows' : platform === 'darwin' ? 'macos' : 'linux';
}

/**
 * The CPU architecture the agent reports (docs/architecture.md "Package targets"): Node's
 * `os.arch()` as Outpost names it, or null for one no package can be built for.
 */
export function architectureOf(arch: string = os.arch()): Architecture | null {
  return ARCH_NAMES.get(arch) ?? null;
}
const ARCH_NAMES = new Map<string, Architecture>([
  ['x64', 'x64'],
  ['ia32', 'x86'],
  ['arm64', 'arm64'],
]);

export async function collectFacts() {
  const [osInfo, system, uuid, defaultIface, ifaces] = await Promise.all([
    boundedOr(si.osInfo(), PROBE_TIMEOUT_MS, null),
    boundedOr(si.system(), PROBE_TIMEOUT_MS, null),
    boundedOr(si.uuid(), PROBE_TIMEOUT_MS, null),
    boundedOr(si.networkInterfaceDefault(), PROBE_TIMEOUT_MS, ''),
    boundedOr(si.networkInterfaces(), PROBE_TIMEOUT_MS, []),
  ]);
  const list = Array.isArray(ifaces) ? ifaces : [ifaces];
  const primary = list.find((i) => i.iface === defaultIface) ?? list.find((i) => !i.internal && i.ip4);
  return {
    hostname: os.hostname(),
    osType: osTypeOf(),
    architecture: architectureOf(),
    osVersion: [osInfo?.distro, osInfo?.release].filter(Boolean).join(' ') || os.release(),
    serialNumber: clean(system?.serial),
    machineId: clean(uuid?.os) ?? readMachineId(),
    manufacturer: clean(system?.manufacturer),
    model: clean(system?.model),
    ipAddress: primary?.ip4 || null,
  };
}

function readMachineId(): string | null {
  try {
    return fs.readFileSync('/etc/machine-id', 'utf8').trim() || null;
  } catch {
    return null;
  }
}

export async function collectHardware(): Promise<HardwareInfo> {
  // memory is required (a hardware part without it says nothing); the rest may be missing
  const [system, cpu, mem, memLayout, fsSize] = await Promise.all([
    boundedOr(si.system(), PROBE_TIMEOUT_MS, null),
    boundedOr(si.cpu(), PROBE_TIMEOUT_MS, null),
    bounded(si.mem(), PROBE_TIMEOUT_MS, 'The memory probe'),
    boundedOr(si.memLayout(), PROBE_TIMEOUT_MS, []),
    boundedOr(si.fsSize(), PROBE_TIMEOUT_MS, []),
  ]);
  const modules = memLayout
    .filter((m) => m.size > 0)
    .map((m) => ({ capacity: Math.round((m.size / GB) * 100) / 100 }));
  const seen = new Set<string>();
  const storageDevices = fsSize
    .filter((f) => f.size > 0 && !/^(tmpfs|devtmpfs|overlay|squashfs|proc|sysfs)$/.test(f.type))
    .filter((f) => (seen.has(f.fs) ? false : (seen.add(f.fs), true)))
    .map((f) => ({
      deviceId: f.mount || f.fs,
      mediaType: f.type || 'Unknown',
      totalSize: f.size,
      freeSpace: Math.max(0, f.available ?? f.size - f.used),
    }));
  return {
    systemInfo: {
      manufacturer: clean(system?.manufacturer) ?? 'Unknown',
      model: clean(system?.model) ?? 'Unknown',
    },
    cpu: { name: [cpu?.manufacturer, cpu?.brand].filter(Boolean).join(' ') || 'Unknown' },
    memoryModules: modules.length > 0 ? modules : [{ capacity: Math.round((mem.total / GB) * 100) / 100 }],
    storageDevices,
  };
}

async function dnsServers(): Promise<string[]> {
  if (process.platform === 'win32') {
    const out = await tryExec(
      'powershell.exe',
      [
        '-NoProfile',
        '-Command',
        '(Get-DnsClientServerAddress -AddressFamily IPv4).ServerAddresses | Sort-Object -Unique',
      ],
      PROBE_TIMEOUT_MS,
    );
    return out
      ? out
          .split(/\r?\n/)
          .map((s) => s.trim())
          .filter(Boolean)
      : [];
  }
  if (process.platform === 'darwin') {
    const out = await tryExec('scutil', ['--dns'], PROBE_TIMEOUT_MS);
    return out ? [...new Set([...out.matchAll(/nameserver\[\d+\]\s*:\s*(\S+)/g)].map((m) => m[1]!))] : [];
  }
  try {
    const text = fs.readFileSync('/etc/resolv.conf', 'utf8');
    return [...text.matchAll(/^\s*nameserver\s+(\S+)/gm)].map((m) => m[1]!);
  } catch {
    return [];
  }
}

async function externalIp(url: string | null): Promise<string | null> {
  if (!url) {
    return null;
  }
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
    const text = (await res.text()).trim();
    return res.ok && /^[0-9a-fA-F:.]{3,45}$/.test(text) ? text : null;
  } catch {
    return null;
  }
}

export async function collectNetwork(externalIpUrl: string | null): Promise<NetworkInfo> {
  // the interfaces are required; a gateway, statistics or DNS servers that do not answer in time
  // are left out (networkGatewayDefault() never settles on a machine without a default gateway)
  const [ifacesRaw, stats, gateway, defaultIface, dns, ext] = await Promise.all([
    bounded(si.networkInterfaces(), PROBE_TIMEOUT_MS, 'The network interfaces probe'),
    boundedOr(si.networkStats('*'), PROBE_TIMEOUT_MS, []),
    boundedOr(si.networkGatewayDefault(), PROBE_TIMEOUT_MS, ''),
    boundedOr(si.networkInterfaceDefault(), PROBE_TIMEOUT_MS, ''),
    boundedOr(dnsServers(), PROBE_TIMEOUT_MS, []),
    externalIp(externalIpUrl),
  ]);
  const ifaces = Array.isArray(ifacesRaw) ? ifacesRaw : [ifacesRaw];
  const byIface = new Map(stats.map((s) => [s.iface, s]));
  const interfaces: NetworkInterface[] = ifaces.map((i) => {
    const s = byIface.get(i.iface);
    const isUp = i.operstate === 'up' || (i.internal && i.operstate === 'unknown');
    return {
      name: i.iface,
      description: i.ifaceName || i.iface,
      type: i.internal ? 'loopback' : i.type || 'unknown',
      speed: typeof i.speed === 'number' && i.speed > 0 ? i.speed : null,
      status: isUp ? 'Up' : i.operstate === 'down' ? 'Down' : 'Unknown',
      macAddress: i.mac || '',
      gateway: i.iface === defaultIface && gateway ? gateway : null,
      dhcpEnabled: Boolean(i.dhcp),
      ipv4Addresses: i.ip4 ? [{ address: i.ip4, subnetMask: i.ip4subnet || '' }] : [],
      ipv6Addresses: i.ip6 ? [i.ip6] : [],
      bytesReceived: s?.rx_bytes ?? 0,
      bytesSent: s?.tx_bytes ?? 0,
    };
  });
  return { externalIp: ext, dnsServers: dns, interfaces };
}

/** Open user sessions (login/logout events come from their changes). */
export async function collectSessions(): Promise<UserSession[]> {
  const users = await boundedOr(si.users(), PROBE_TIMEOUT_MS, []);
  return users
    .filter((u) => u.user)
    .map((u) => {
      const startedAt = u.date && u.time ? new Date(`${u.date}T${u.time}`) : null;
      return {
        sessionId: crypto
          .createHash('sha256')
          .update(`${u.user}|${u.tty}|${u.date}|${u.time}`)
          .digest('hex')
          .slice(0, 32),
        userName: u.user,
        ipAddress: clean(u.ip),
        ...(startedAt && !Number.isNaN(startedAt.getTime()) && { startedAt: startedAt.toISOString() }),
      };
    });
}
