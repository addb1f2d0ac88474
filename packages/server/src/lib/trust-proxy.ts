import net from 'node:net';
import { ConfigError } from './config-error';

// TRUST_PROXY: which peers may tell Outpost the client's address (X-Forwarded-For) and scheme
// (X-Forwarded-Proto). Rate limits, the audit log and dev sign-in use the address it resolves
// (Fastify's request.ip), so whatever it trusts can choose that address (SECURITY.md R2-8).

export type TrustProxy = false | number | string[];

// proxy-addr's names for address ranges, accepted in a TRUST_PROXY list as Fastify accepts them.
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const TRUST_PROXY_FORMAT =
  "TRUST_PROXY must be a hop count (1 for one reverse proxy in front of Outpost) or a comma-separated list of the proxies' addresses or CIDR ranges (e.g. 10.0.0.5,192.168.1.0/24)";

function isAddressOrCidr(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) {
    return true;
  }
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = net.isIP(address);
  if (family === 0 || rest.length > 0) {
    return false;
  }
  if (prefix === undefined) {
    return true;
  }
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits >= 0 && bits <= (family === 4 ? 32 : 128);
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 addresses (::ffff:127.0.0.1). */
export function isLoopbackAddress(ip: string): boolean {
  const v4 = ip.toLowerCase().startsWith('::ffff:') ? ip.slice(7) : ip;
  return ip === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** A HOST only this machine can reach: a loopback address, or `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || isLoopbackAddress(h);
}

/**
 * TRUST_PROXY as Fastify's trustProxy. A number is how many proxies in front of Outpost to trust
 * (the client address is then the entry that many hops from the right of X-Forwarded-For); a list
 * names the proxies. "true" (trust every hop) is refused: any client could then write its own
 * address.
 */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const value = raw?.trim() ?? '';
  if (value === '' || value === '0' || value === 'false' || value === 'no') {
    return false;
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 0 && hops <= 32) {
      return hops;
    }
    throw new ConfigError(
      `Invalid configuration:\n  TRUST_PROXY: ${TRUST_PROXY_FORMAT} (a hop count is 1 to 32)`,
    );
  }
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const invalid = entries.filter((e) => !isAddressOrCidr(e));
  if (entries.length === 0 || invalid.length > 0) {
    const shown = invalid.length > 0 ? ` ("${invalid.join('", "')}" is not one)` : '';
    throw new ConfigError(`Invalid configuration:\n  TRUST_PROXY: ${TRUST_PROXY_FORMAT}${shown}`);
  }
  return entries;
}

/**
 * A hop count trusts whoever connects: it cannot tell the proxy from a client that reaches the
 * instance directly and sends its own X-Forwarded-For. So a hop count is accepted only while the
 * instance listens on loopback, where the first proxy is this machine's; an instance other
 * machines can reach must name its proxies.
 */
export function checkTrustProxyHost(trustProxy: TrustProxy, host: string): void {
  if (typeof trustProxy !== 'number' || isLoopbackHost(host)) {
    return;
  }
  throw new ConfigError(
    `Invalid configuration:\n  TRUST_PROXY: ${trustProxy} is a hop count, which trusts X-Forwarded-For ` +
      `from whoever connects, and HOST=${host} lets clients connect directly: they could choose the ` +
      `address the audit log and the rate limits use. Name the proxies instead ` +
      `(TRUST_PROXY=10.0.0.5, or a CIDR range such as 10.0.0.0/24), or listen on loopback only ` +
      `(HOST=127.0.0.1) behind a proxy on this machine.`,
  );
}

/**
 * The value for Fastify's trustProxy option. Fastify trusts a hop count at run time but its types
 * omit numbers, so a count becomes proxy-addr's function form: the first N hops, of which the
 * first (the peer of the socket) must be on this machine. checkTrustProxyHost makes that so at
 * start; checking it again per request keeps a hop count from ever trusting a remote peer.
 */
export function fastifyTrustProxy(
  trustProxy: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trustProxy === 'number') {
    const hops = trustProxy;
    return (address, hop) => hop < hops && (hop > 0 || isLoopbackAddress(address));
  }
  return trustProxy;
}
