import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DEFAULT_MAX_UPLOAD_BYTES } from '@outpost/contract/files';
import { ConfigError } from './lib/config-error';
import { checkReleasesDir } from './lib/dir-trust';
import { DEFAULT_TENANT_STORAGE_QUOTA_BYTES } from '@outpost/contract/limits';
import { InsecureDirError, ensurePrivateDir } from './lib/private-dir';
import { checkTrustProxyHost, fastifyTrustProxy, parseTrustProxy } from './lib/trust-proxy';
import type { TrustProxy } from './lib/trust-proxy';
import { SsoEnv, ssoConfigFrom } from './modules/sso/sso-config';
import type { SsoConfig } from './modules/sso/sso-config';

const booleanFlag = z
  .enum(['0', '1', 'true', 'false', 'yes', 'no', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

// Environment, validated at start with clear errors (docs/operations.md lists every variable).
const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** off for a pooler that cannot carry prepared statements (db/prepared-statements.ts) */
  DATABASE_PREPARED_STATEMENTS: z.enum(['on', 'off']).default('on'),
  REDIS_URL: z.string().optional(),
  /** channel prefix on Redis, so several Outpost installations (or test runs) can share one Redis */
  REDIS_CHANNEL_PREFIX: z.string().min(1).default('outpost:'),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_JWKS_URL: z.url().default('https://www.googleapis.com/oauth2/v3/certs'),
  GOOGLE_ISSUERS: z.string().default('accounts.google.com,https://accounts.google.com'),
  SESSION_SECRET: z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional(),
  OUTPOST_ALLOW_DEV_LOGIN: booleanFlag,
  OUTPOST_DEMO: z.enum(['0', '1']).default('1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().optional(),
  TRUST_PROXY: z.string().optional(),
  /** server processes sharing the port (workers.ts); more than 1 needs PostgreSQL and Redis */
  WEB_WORKERS: z.coerce.number().int().min(1).max(64).default(1),
  // Agents and live updates (docs/operations.md#several-instances-and-the-limits-agents-meet)
  AGENT_HEARTBEAT_INTERVAL_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  AGENT_PRESENCE_GRACE_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  AGENT_UPGRADES_PER_SECOND: z.coerce.number().positive().default(250),
  AGENT_UPGRADE_BURST: z.coerce.number().int().positive().default(25),
  AGENT_HELLOS_IN_FLIGHT: z.coerce.number().int().positive().default(32),
  AGENT_HELLO_HOLD_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  OUTPOST_DEMO_DEVICES: z.coerce.number().int().min(0).max(10_000).default(25),
  OUTPOST_SIM_FAILURE_RATE: z.coerce
    .number({ error: 'OUTPOST_SIM_FAILURE_RATE must be a number from 0 to 1' })
    .min(0, 'OUTPOST_SIM_FAILURE_RATE must be a number from 0 to 1')
    .max(1, 'OUTPOST_SIM_FAILURE_RATE must be a number from 0 to 1')
    .default(0.05),
  /**
   * monitoring faults of the demo fleet (sim/sim-faults.ts): "hotCpu=0.1,fillingDisk=0.05,…",
   * "none"; the demo's own mix when unset
   */
  OUTPOST_DEMO_FAULTS: z
    .string()
    .max(1000)
    .regex(
      /^\s*(none|[A-Za-z]+=[\d.]+(\s*,\s*[A-Za-z]+=[\d.]+)*)?\s*$/,
      'OUTPOST_DEMO_FAULTS is name=share pairs (hotCpu=0.1,fillingDisk=0.05) or none',
    )
    .optional()
    .transform((v) => v?.trim() || undefined),
  /** where the demo fleet connects: the server's own address by default; nginx's in `npm run cluster` */
  OUTPOST_DEMO_FLEET_URL: z
    .string()
    .optional()
    .transform((v) => v?.trim() || undefined)
    .refine((v) => v === undefined || /^https?:\/\/[^/\s]+\/?$/.test(v), {
      message: 'OUTPOST_DEMO_FLEET_URL must be a server URL such as http://127.0.0.1:3000',
    }),
  // Files (docs/user-guide.md#packages)
  MAX_UPLOAD_BYTES: z.coerce.number().int().positive().default(DEFAULT_MAX_UPLOAD_BYTES),
  /** each organisation's storage quota unless the operator set its own (`tenant:quota`) */
  TENANT_STORAGE_QUOTA_BYTES: z.coerce.number().int().min(0).default(DEFAULT_TENANT_STORAGE_QUOTA_BYTES),
  BLOB_DIR: z.string().optional(),
  // Agent and portal socket limits (docs/operations.md#several-instances-and-the-limits-agents-meet, SECURITY.md)
  AGENT_AUTH_FAILURES_PER_ADDRESS: z.coerce.number().int().positive().default(30),
  AGENT_AUTH_FAILURE_WINDOW_MS: z.coerce.number().int().min(1000).default(60_000),
  AGENT_MESSAGES_PER_SECOND: z.coerce.number().positive().default(20),
  AGENT_MESSAGE_BURST: z.coerce.number().int().positive().default(200),
  AGENT_MESSAGE_QUEUE_LIMIT: z.coerce.number().int().positive().default(50),
  AGENT_MESSAGE_QUEUE_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(16 * 1024 * 1024),
  PORTAL_SESSION_CHECK_MS: z.coerce.number().int().min(50).max(30_000).default(30_000),
  SIGN_IN_PER_MINUTE: z.coerce.number().int().positive().default(30),
  // each API token's requests per minute (docs/product/administration.md#api-tokens)
  API_TOKEN_PER_MINUTE: z.coerce.number().int().positive().default(600),
  ENROLL_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().positive().default(600),
  ENROLL_FAILURES_PER_ADDRESS: z.coerce.number().int().positive().default(20),
  ENROLL_PER_TOKEN_PER_MINUTE: z.coerce.number().int().positive().default(600),
  // Deployments (docs/user-guide.md#deployments)
  DEPLOYMENT_OFFLINE_EXPIRY_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(24 * 60 * 60 * 1000),
  DEPLOYMENT_SCHEDULER_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  // Automation policies (docs/product/device-sets.md#automation-policies): how often each instance looks for due runs
  POLICY_SCHEDULER_INTERVAL_MS: z.coerce.number().int().min(50).max(300_000).default(30_000),
  NOTIFY_OUTBOX_INTERVAL_MS: z.coerce.number().int().min(50).max(300_000).default(5_000),
  ALERT_SWEEP_INTERVAL_MS: z.coerce.number().int().min(50).max(600_000).default(30_000),
  // Metrics (docs/operations.md#running-in-production): /metrics only with a token, or on an internal port
  METRICS_TOKEN: z
    .string()
    .min(32, 'METRICS_TOKEN must be at least 32 characters (e.g. openssl rand -hex 32)')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  METRICS_PORT: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? Number(v.trim()) : undefined))
    .refine((v) => v === undefined || (Number.isInteger(v) && v >= 1 && v <= 65535), {
      message: 'METRICS_PORT must be a port number from 1 to 65535',
    }),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  // Agent executables served to install scripts and self-updates (docs/agent.md#installing-the-agent)
  AGENT_RELEASES_DIR: z.string().optional(),
  // Windows agent releases only Authenticode-signed: the server publishes, the install script
  // and the self-update accept nothing else (docs/operations.md#agent-releases)
  OUTPOST_AGENT_REQUIRE_SIGNATURE: booleanFlag,
  // Single sign-on besides Google (docs/operations.md#single-sign-on)
  ...SsoEnv,
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** DATABASE_PREPARED_STATEMENTS: hot statements prepared on PostgreSQL's pooled connections */
  preparedStatements: boolean;
  redisUrl?: string;
  redisChannelPrefix: string;
  /** WEB_WORKERS: server processes sharing the port (workers.ts) */
  webWorkers: number;
  google: { clientId: string | null; jwksUrl: string; issuers: string[] };
  sessionSecret: Uint8Array;
  /** dev sign-in is configured (no Google client id); each request is still checked (devSignInAllowed) */
  /** OUTPOST_ALLOW_DEV_LOGIN=1: password-less dev sign-in, from this machine only */
  devLogin: boolean;
  demo: boolean;
  logLevel: string;
  webDistDir: string | null;
  /** Fastify's trustProxy: false, a hop count, or the proxies' addresses/CIDRs (parseTrustProxy) */
  trustProxy: TrustProxy;
  agents: {
    /** agents send a heartbeat this often; told to them in the welcome */
    heartbeatIntervalMs: number;
    /** a closed or silent agent stays online this long before it is marked offline */
    presenceGraceMs: number;
    /** websocket upgrades admitted per second on /api/agent/ws (token bucket), and its burst */
    upgradesPerSecond: number;
    upgradeBurst: number;
    /**
     * agents between their hello and their first inventory at once; more hellos wait their turn,
     * and past eight times as many waiting, upgrades are refused (503) until the queue shortens
     */
    hellosInFlight: number;
    /**
     * how long a welcomed agent may keep its place waiting for its first inventory (0: the place
     * is given back at the welcome)
     */
    helloHoldMs: number;
    /** failed socket authentications one client address may make per window before it is refused */
    authFailuresPerAddress: number;
    authFailureWindowMs: number;
    /** messages of one agent handled per second and at once; faster ones wait */
    messagesPerSecond: number;
    messageBurst: number;
    /**
     * messages (and bytes) of one agent waiting to be handled before its socket stops reading;
     * twice the bytes closes it (1008)
     */
    queueLimit: number;
    queueBytes: number;
  };
  /** how often an open portal socket's session is re-checked (at most 30 s) */
  portalSessionCheckMs: number;
  /** sign-in attempts per client address per minute (shared through Redis when REDIS_URL is set) */
  signInPerMinute: number;
  apiTokenPerMinute: number;
  enroll: {
    /** enrolments per client address per minute */
    perAddressPerMinute: number;
    /** failed enrolments (unknown, expired or revoked token) per client address per minute */
    failuresPerAddress: number;
    /** enrolments with one token per minute, from every address together */
    perTokenPerMinute: number;
  };
  deployments: {
    /** a device that has not taken its work this long after the job became due fails */
    offlineExpiryMs: number;
    /** how often each instance looks for due jobs and expired device deployments */
    schedulerIntervalMs: number;
  };
  /** automation policies: how often each instance looks for due occurrences and joined devices */
  policies: { schedulerIntervalMs: number };
  /** notification deliveries: how often each instance looks for due ones (docs/product/monitoring.md#deliveries) */
  notifications: { outboxIntervalMs: number };
  /** alerts: how often each instance looks for devices offline too long (docs/product/monitoring.md#alerts) */
  alerts: { sweepIntervalMs: number };
  /** simulated devices the embedded demo runs (0 disables) */
  demoDevices: number;
  /** chance that a step attempt of a simulated demo device fails */
  demoFailureRate: number;
  /** the URL the demo fleet connects to (OUTPOST_DEMO_FLEET_URL); null: this server's own address */
  demoFleetUrl: string | null;
  /** the demo fleet's monitoring faults (OUTPOST_DEMO_FAULTS); null: the demo's own mix */
  demoFaults?: string | null;
  /** the largest file an upload may carry, in bytes (default 2 GiB) */
  maxUploadBytes: number;
  /** bytes of uploads an organisation may keep when the operator set no quota of its own (10 GiB) */
  tenantStorageQuotaBytes: number;
  /** where the local blob store keeps uploaded files (default DATA_DIR/blobs) */
  blobDir: string;
  metrics: {
    /** GET /metrics on the main port answers only `Authorization: Bearer <token>`; null: 404 */
    token: string | null;
    /** a separate port (on `host`) serving /metrics for an internal scraper; null: none */
    port: number | null;
    host: string;
  };
  /** the published agent executables and their sidecars (default packages/agent/dist-exe) */
  agentReleasesDir: string;
  /** refuse to publish an unsigned Windows agent release (OUTPOST_AGENT_REQUIRE_SIGNATURE) */
  agentRequireSignature: boolean;
  /** Microsoft Entra ID and a generic OpenID Connect provider for the whole server */
  sso: SsoConfig;
};

/** The repository root: config.ts (and the built entry) sit two folders below packages/server. */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export { ConfigError, fastifyTrustProxy, parseTrustProxy };
export type { TrustProxy };

function checkTrustedDirs(dataDir: string, blobDir: string, releasesDir: string) {
  try {
    ensurePrivateDir(dataDir, 'DATA_DIR');
    ensurePrivateDir(blobDir, 'BLOB_DIR');
    checkReleasesDir(releasesDir);
  } catch (err) {
    throw err instanceof InsecureDirError ? new ConfigError(err.message) : err;
  }
}

// The session signing key: SESSION_SECRET, or one generated once and kept under DATA_DIR.
function loadSessionSecret(dataDir: string, given?: string): Uint8Array {
  if (given) {
    return new TextEncoder().encode(given);
  }
  const file = path.join(dataDir, 'session.key');
  if (fs.existsSync(file)) {
    return new Uint8Array(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64'));
  }
  // 384 bits from the operating system's CSPRNG.
  const key = crypto.randomBytes(48);
  fs.writeFileSync(file, key.toString('base64'), { mode: 0o600 });
  return new Uint8Array(key);
}

function ssoConfig(e: Parameters<typeof ssoConfigFrom>[0]): SsoConfig {
  try {
    return ssoConfigFrom(e);
  } catch (err) {
    throw new ConfigError(`Invalid configuration:\n  ${(err as Error).message}`);
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  // npm runs workspace scripts inside the workspace; a relative DATA_DIR means the caller's folder.
  const baseDir = env.INIT_CWD || process.cwd();
  const dataDir = path.resolve(baseDir, e.DATA_DIR);
  const clientId = e.GOOGLE_CLIENT_ID?.trim() || null;
  const blobDir = env.BLOB_DIR?.trim()
    ? path.resolve(baseDir, env.BLOB_DIR.trim())
    : path.join(dataDir, 'blobs');
  const trustProxy = parseTrustProxy(e.TRUST_PROXY);
  checkTrustProxyHost(trustProxy, e.HOST);
  const agentReleasesDir = e.AGENT_RELEASES_DIR?.trim()
    ? path.resolve(baseDir, e.AGENT_RELEASES_DIR.trim())
    : path.join(repoRoot, 'packages/agent/dist-exe');
  // Before anything is written there (the session key): refuse folders other accounts can change.
  checkTrustedDirs(dataDir, blobDir, agentReleasesDir);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    preparedStatements: e.DATABASE_PREPARED_STATEMENTS === 'on',
    redisUrl: e.REDIS_URL?.trim() || undefined,
    redisChannelPrefix: e.REDIS_CHANNEL_PREFIX,
    webWorkers: e.WEB_WORKERS,
    google: {
      clientId,
      jwksUrl: e.GOOGLE_JWKS_URL,
      issuers: e.GOOGLE_ISSUERS.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    },
    sessionSecret: loadSessionSecret(dataDir, e.SESSION_SECRET),
    // Dev sign-in is an explicit opt-in (SECURITY.md R2-7): `npm start` (the demo) sets it, nothing
    // else does. Each request must also come from this machine, with no proxy in between.
    devLogin: e.OUTPOST_ALLOW_DEV_LOGIN,
    demo: e.OUTPOST_DEMO === '1',
    logLevel: e.LOG_LEVEL,
    webDistDir: e.WEB_DIST_DIR ?? null,
    trustProxy,
    agents: {
      heartbeatIntervalMs: e.AGENT_HEARTBEAT_INTERVAL_MS,
      presenceGraceMs: e.AGENT_PRESENCE_GRACE_MS,
      upgradesPerSecond: e.AGENT_UPGRADES_PER_SECOND,
      upgradeBurst: e.AGENT_UPGRADE_BURST,
      hellosInFlight: e.AGENT_HELLOS_IN_FLIGHT,
      helloHoldMs: e.AGENT_HELLO_HOLD_MS,
      authFailuresPerAddress: e.AGENT_AUTH_FAILURES_PER_ADDRESS,
      authFailureWindowMs: e.AGENT_AUTH_FAILURE_WINDOW_MS,
      messagesPerSecond: e.AGENT_MESSAGES_PER_SECOND,
      messageBurst: e.AGENT_MESSAGE_BURST,
      queueLimit: e.AGENT_MESSAGE_QUEUE_LIMIT,
      queueBytes: e.AGENT_MESSAGE_QUEUE_BYTES,
    },
    portalSessionCheckMs: e.PORTAL_SESSION_CHECK_MS,
    signInPerMinute: e.SIGN_IN_PER_MINUTE,
    apiTokenPerMinute: e.API_TOKEN_PER_MINUTE,
    enroll: {
      perAddressPerMinute: e.ENROLL_PER_ADDRESS_PER_MINUTE,
      failuresPerAddress: e.ENROLL_FAILURES_PER_ADDRESS,
      perTokenPerMinute: e.ENROLL_PER_TOKEN_PER_MINUTE,
    },
    deployments: {
      offlineExpiryMs: e.DEPLOYMENT_OFFLINE_EXPIRY_MS,
      schedulerIntervalMs: e.DEPLOYMENT_SCHEDULER_INTERVAL_MS,
    },
    policies: { schedulerIntervalMs: e.POLICY_SCHEDULER_INTERVAL_MS },
    notifications: { outboxIntervalMs: e.NOTIFY_OUTBOX_INTERVAL_MS },
    alerts: { sweepIntervalMs: e.ALERT_SWEEP_INTERVAL_MS },
    demoDevices: e.OUTPOST_DEMO_DEVICES,
    demoFailureRate: e.OUTPOST_SIM_FAILURE_RATE,
    demoFleetUrl: e.OUTPOST_DEMO_FLEET_URL?.replace(/\/$/, '') ?? null,
    demoFaults: e.OUTPOST_DEMO_FAULTS ?? null,
    maxUploadBytes: e.MAX_UPLOAD_BYTES,
    tenantStorageQuotaBytes: e.TENANT_STORAGE_QUOTA_BYTES,
    blobDir,
    metrics: { token: e.METRICS_TOKEN ?? null, port: e.METRICS_PORT ?? null, host: e.METRICS_HOST },
    agentReleasesDir,
    agentRequireSignature: e.OUTPOST_AGENT_REQUIRE_SIGNATURE,
    sso: ssoConfig(e),
  };
}
