import { z } from 'zod';
import { Id } from './input';
import { MAX_ROLLOUT_DEVICES, RolloutPlan } from './rollouts';

// Published agent executables (agent packages and upgrades). The build script
// (scripts/build-agent-exe.mjs) writes `outpost-agent-<platform>[.exe]` and a sidecar
// `<file>.json` into AGENT_RELEASES_DIR; the server lists them, serves them to install scripts
// and tells agents to update to them.

export const AGENT_PLATFORMS = ['linux-x64', 'win-x64', 'darwin-x64', 'darwin-arm64'] as const;
export const AgentPlatform = z.enum(AGENT_PLATFORMS);
export type AgentPlatform = z.infer<typeof AgentPlatform>;

/** The device os_type each platform's executable runs on. */
export const PLATFORM_OS_TYPE: Record<AgentPlatform, 'linux' | 'windows' | 'macos'> = {
  'linux-x64': 'linux',
  'win-x64': 'windows',
  'darwin-x64': 'macos',
  'darwin-arm64': 'macos',
};

/** The executable's file name for a platform (what the build script writes). */
export const agentFileName = (platform: AgentPlatform) =>
  `outpost-agent-${platform}${platform.startsWith('win-') ? '.exe' : ''}`;

/** The platform of the running process, as the build script names it (null when none is built). */
export function platformOf(platform: string, arch: string): AgentPlatform | null {
  const name = `${platform === 'win32' ? 'win' : platform}-${arch}`;
  return AgentPlatform.safeParse(name).success ? (name as AgentPlatform) : null;
}

const SEMVER = /^(\d{1,9})\.(\d{1,9})\.(\d{1,9})(?:-([0-9A-Za-z.-]{1,64}))?(?:\+[0-9A-Za-z.-]{1,64})?$/;
export const SemVer = z.string().regex(SEMVER, 'version must be a semantic version such as 1.2.3');

/**
 * Compares two semantic versions: negative when a is older, 0 when equal, positive when newer;
 * null when either is not a version. A pre-release is older than its release (1.0.0-rc.1 < 1.0.0).
 */
export function compareVersions(a: string, b: string): number | null {
  const ma = SEMVER.exec(a.trim());
  const mb = SEMVER.exec(b.trim());
  if (!ma || !mb) {
    return null;
  }
  for (let i = 1; i <= 3; i++) {
    const d = Number(ma[i]) - Number(mb[i]);
    if (d !== 0) {
      return d;
    }
  }
  const pa = ma[4];
  const pb = mb[4];
  if (pa === pb) {
    return 0;
  }
  if (pa === undefined) {
    return 1;
  }
  if (pb === undefined) {
    return -1;
  }
  const xs = pa.split('.');
  const ys = pb.split('.');
  for (let i = 0; i < Math.max(xs.length, ys.length); i++) {
    const x = xs[i];
    const y = ys[i];
    if (x === undefined || y === undefined) {
      return x === undefined ? -1 : 1;
    }
    const nx = /^\d+$/.test(x) ? Number(x) : null;
    const ny = /^\d+$/.test(y) ? Number(y) : null;
    if (nx !== null && ny !== null && nx !== ny) {
      return nx - ny;
    }
    if ((nx === null) !== (ny === null)) {
      return nx === null ? 1 : -1;
    }
    if (x !== y) {
      return x < y ? -1 : 1;
    }
  }
  return 0;
}

const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'sha256 must be 64 lower-case hex digits');

/**
 * The compressed forms of a release, each a file `<executable>.<encoding>` beside it: br (Brotli
 * quality 11: the agent's self-update, Node's zlib decompresses it; install.ps1 on PowerShell 7),
 * xz (install.sh), gz (install.ps1 on Windows PowerShell 5.1). docs/agent.md#download-sizes.
 */
export const AGENT_ENCODINGS = ['br', 'xz', 'gz'] as const;
export const AgentEncoding = z.enum(AGENT_ENCODINGS);
export type AgentEncoding = z.infer<typeof AgentEncoding>;
const CompressedFile = z.object({ sha256: Sha256Hex, size: z.number().int().positive() });
export type CompressedFile = z.infer<typeof CompressedFile>;

/** The sidecar the build script writes beside each executable (its contract). */
export const AgentReleaseSidecar = z.object({
  platform: AgentPlatform,
  version: SemVer,
  sha256: Sha256Hex,
  size: z.number().int().positive(),
  node: z.string().max(64),
  /** the Authenticode signer of a Windows executable: its subject and certificate sha256 */
  signer: z.object({ subject: z.string().max(1024), sha256: Sha256Hex }).optional(),
  compressed: z.partialRecord(AgentEncoding, CompressedFile).optional(),
});
export type AgentReleaseSidecar = z.infer<typeof AgentReleaseSidecar>;

export const AgentRelease = z.object({
  platform: AgentPlatform,
  os_type: z.enum(['linux', 'windows', 'macos']),
  version: z.string(),
  sha256: z.string(),
  size: z.number().int(),
  /** the Node.js version embedded in the executable */
  node: z.string(),
  file_name: z.string(),
  /** the download, relative to the server (GET /api/agent/releases/:platform) */
  url: z.string(),
  published_at: z.string(),
  /** the sha256 of the Authenticode signer's certificate (Windows, when signed) */
  signer_sha256: z.string().optional(),
  /** the compressed downloads (GET …/releases/:platform?encoding=br|xz|gz): their sizes */
  compressed: z.partialRecord(AgentEncoding, z.object({ size: z.number().int() })).optional(),
});
export type AgentRelease = z.infer<typeof AgentRelease>;

export const AgentReleasePlatformParams = z.object({ platform: z.string().max(64) });
export const AgentReleaseDownloadQuery = z.object({ encoding: z.string().max(16).optional() });

/**
 * The version an agent on this OS would be updated to: the oldest release among the OS's
 * platforms, so an agent is never called outdated by a build for another architecture (the
 * server does not know a macOS device's architecture). Null when none is published.
 */
export function targetVersionFor(osType: string | null | undefined, releases: AgentRelease[]): string | null {
  const os = osType?.toLowerCase();
  let target: string | null = null;
  for (const r of releases) {
    if (r.os_type === os && (target === null || (compareVersions(r.version, target) ?? 0) < 0)) {
      target = r.version;
    }
  }
  return target;
}

/** An agent older than the release published for its OS (unknown versions are not outdated). */
export function isAgentOutdated(
  agentVersion: string | null | undefined,
  osType: string | null | undefined,
  releases: AgentRelease[],
): boolean {
  const target = targetVersionFor(osType, releases);
  if (!agentVersion || !target) {
    return false;
  }
  return (compareVersions(agentVersion, target) ?? 0) < 0;
}

/** How many agents one Update Selected may ask at once, and in waves. */
export const MAX_AGENTS_PER_UPDATE = 1000;

export const UpdateAgentsBody = z
  .object({
    device_ids: z
      .array(Id)
      .min(1, 'Select at least one agent to update')
      .max(MAX_ROLLOUT_DEVICES, `At most ${MAX_ROLLOUT_DEVICES} agents can be updated in waves`),
    /** update in waves with gates (docs/product/rollouts.md#agent-updates-in-waves); absent: all at once */
    rollout: RolloutPlan.optional(),
  })
  .superRefine((body, ctx) => {
    if (!body.rollout && body.device_ids.length > MAX_AGENTS_PER_UPDATE) {
      ctx.addIssue({
        code: 'custom',
        path: ['device_ids'],
        message: `At most ${MAX_AGENTS_PER_UPDATE} agents can be updated at once`,
      });
    }
  });
export type UpdateAgentsBody = z.infer<typeof UpdateAgentsBody>;
/** What a client sends (a rollout gate left out is the default one). */
export type UpdateAgentsRequest = z.input<typeof UpdateAgentsBody>;

export const UpdateAgentsResponse = z.object({
  queued: z.number().int(),
  /**
   * With a rollout: the deployment job that updates the agents wave by wave, and the agents it
   * updates (each gets its command when its wave starts; `updates` is then empty).
   */
  job_id: z.number().int().optional(),
  planned: z
    .array(z.object({ device_id: z.number().int(), from: z.string().nullable(), to: z.string() }))
    .optional(),
  updates: z.array(
    z.object({
      device_id: z.number().int(),
      command_id: z.string(),
      from: z.string().nullable(),
      to: z.string(),
    }),
  ),
  skipped: z.array(
    z.object({ device_id: z.number().int(), hostname: z.string().nullable(), reason: z.string() }),
  ),
});
export type UpdateAgentsResponse = z.infer<typeof UpdateAgentsResponse>;

/** How long an update_agent command waits for an agent that has gone offline. */
export const UPDATE_AGENT_EXPIRY_MS = 60 * 60 * 1000;

export const releaseMessages = {
  unknownPlatform: (platform: string) =>
    `Unknown agent platform "${platform}". Platforms: ${AGENT_PLATFORMS.join(', ')}`,
  // Customers read these: who can help and where it is explained, no build commands.
  notPublished: (platform: string) =>
    `No agent executable is published for ${platform} on this server. Ask whoever administers your Outpost server to publish one (see “Publishing an agent release” in the Outpost documentation).`,
  noneForDevices:
    'No agent executable is published on this server for the selected agents. Ask whoever administers your Outpost server to publish one (see “Publishing an agent release” in the Outpost documentation).',
  nothingToUpdate: 'None of the selected agents can be updated now',
  skippedPending: 'An update is already on its way to this agent',
  skippedOffline: 'Offline: an agent updates only while it is connected',
  skippedCurrent: (version: string) => `Already runs ${version}`,
  skippedNoRelease: (os: string) => `No executable is published for ${os}`,
  skippedNewer: (version: string, target: string) => `Runs ${version}, newer than the published ${target}`,
  unknownEncoding: (encoding: string) =>
    `Unknown download encoding "${encoding}". Encodings: ${AGENT_ENCODINGS.join(', ')} (or none: the executable itself)`,
  notCompressed: (platform: string, encoding: string) =>
    `The agent for ${platform} is not published compressed with ${encoding}; download it without ?encoding`,
  needsPackagedAgent:
    'Self-update needs the packaged agent (outpost-agent executable); an agent run from source is updated with git and npm',
} as const;
