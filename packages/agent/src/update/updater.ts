import path from 'node:path';
import { z } from 'zod';
import { AGENT_DEVICE_HEADER } from '@outpost/contract/agent-protocol';
import type { UpdateAgentCommand } from '@outpost/contract/agent-protocol';
import { platformOf, releaseMessages } from '@outpost/contract/agent-releases';
import type { Logger } from '../connection';
import { defaultIo } from './update-io';
import type { UpdateIo } from './update-io';

export type { SelfTestResult, UpdateIo } from './update-io';

// Self-update of the packaged agent. The running agent downloads the build for its
// platform beside its executable (xz- or Brotli-compressed when the server offers it, then
// decompressed), checks size and sha256 (from the command, which came over the agent's
// authenticated socket) and, when the command names a signer (Windows), its Authenticode
// signature and signer certificate (docs/agent.md#signature); runs it with --self-test (it must print the promised version and
// exit 0), writes a marker and swaps: current → <exe>.previous, new → current, each a rename in
// one directory (atomic). Then it exits (UPDATE_EXIT_CODE) and the service manager starts the new
// version.
//
// The new version counts its starts in the marker BEFORE it connects. Welcomed by the server, it
// answers the update command (completed), and deletes the marker and <exe>.previous. Crashing
// MAX_START_ATTEMPTS times, or not welcomed within confirmTimeoutMs, it restores <exe>.previous
// (rollback) and exits (ROLLBACK_EXIT_CODE); the previous version then answers the command
// (failed, with the reason).

/** The agent exits with this after swapping in a new version; the service manager restarts it. */
export const UPDATE_EXIT_CODE = 75;
/** The agent exits with this after restoring the previous version. */
export const ROLLBACK_EXIT_CODE = 76;
export const MAX_START_ATTEMPTS = 3;
export const DEFAULT_CONFIRM_TIMEOUT_MS = 120_000;
export const MARKER_FILE = 'update-pending.json';

const Marker = z.object({
  commandId: z.string(),
  fromVersion: z.string(),
  toVersion: z.string(),
  state: z.enum(['applied', 'rolled_back']),
  attempts: z.number().int().nonnegative(),
  reason: z.string().optional(),
  appliedAt: z.string(),
});
type Marker = z.infer<typeof Marker>;

export type UpdaterOptions = {
  /** the running executable (process.execPath of the packaged agent) */
  exePath: string;
  /** running as the packaged single executable (node:sea isSea()); from source it cannot update itself */
  isPackaged: boolean;
  version: string;
  /** process.platform and process.arch */
  platform?: string;
  arch?: string;
  stateDir: string;
  server: string;
  deviceGuid: string;
  agentSecret: string;
  confirmTimeoutMs?: number;
  maxStartAttempts?: number;
  io?: Partial<UpdateIo>;
  log?: Logger;
};

export type SettledUpdate = {
  commandId: string;
  status: 'completed' | 'failed';
  result: Record<string, unknown> | null;
  error: string | null;
};

export type ApplyOutcome = { restart: true } | { restart: false; result: Record<string, unknown> };

/** The version a --self-test printed: its last word that looks like a version. */
export function selfTestVersion(stdout: string): string | null {
  const match = /(\d+\.\d+\.\d+[0-9A-Za-z.+-]*)\s*$/.exec(stdout.trim());
  return match?.[1] ?? null;
}

type Build = UpdateAgentCommand['builds'][number];

/** What `apply` works on: the io, the options and the files beside the executable. */
type SwapContext = {
  io: UpdateIo;
  options: UpdaterOptions;
  log: Logger | undefined;
  exe: string;
  previous: string;
  markerPath: string;
  writeMarker: (m: Marker) => Promise<void>;
};

/** A URL of the agent's own server (it sends its credentials there, nowhere else). */
function ownServer(options: UpdaterOptions, relative: string): URL {
  const url = new URL(relative, options.server);
  if (url.origin !== new URL(options.server).origin) {
    throw new Error(`The update names a download on another server (${url.origin}): refused`);
  }
  return url;
}

/**
 * The build's executable into `download`: its smallest compressed form this agent can unpack
 * (xz with the system's xz on Linux and macOS, else Brotli) decompressed, or else as is.
 */
async function fetchBuild(io: UpdateIo, options: UpdaterOptions, build: Build, download: string) {
  const headers = {
    [AGENT_DEVICE_HEADER]: options.deviceGuid,
    authorization: `Bearer ${options.agentSecret}`,
  };
  const xz = build.xz && (await io.hasXz()) ? build.xz : undefined;
  const packed = xz
    ? { encoding: 'xz' as const, ...xz }
    : build.br && { encoding: 'br' as const, ...build.br };
  if (!packed) {
    await io.download(ownServer(options, build.url), download, headers, build.size);
    return;
  }
  const file = `${download}.${packed.encoding}`;
  try {
    await io.download(ownServer(options, packed.url), file, headers, packed.size);
    await io.decompress(file, download, build.size, packed.encoding);
  } finally {
    await io.remove(file);
  }
}

/** Downloads `build` into `download`, verifies and self-tests it, and swaps it in. */
async function downloadAndSwap(
  ctx: SwapContext,
  commandId: string,
  build: Build,
  download: string,
): Promise<ApplyOutcome> {
  const { io, options, log, exe, previous, markerPath, writeMarker } = ctx;
  await io.remove(download);
  await fetchBuild(io, options, build, download);
  const got = await io.hash(download);
  if (got.size !== build.size) {
    throw new Error(`The download has ${got.size} bytes, the update announced ${build.size}: refused`);
  }
  if (got.sha256 !== build.sha256) {
    throw new Error(`The download's sha256 is ${got.sha256}, the update announced ${build.sha256}: refused`);
  }
  if (build.signer_sha256) {
    const signature = await io.verifySignature(download, build.signer_sha256);
    if (!signature.valid) {
      throw new Error(`The download's Authenticode signature does not verify (${signature.reason}): refused`);
    }
  }
  await io.chmod(download, 0o755);
  const test = await io.selfTest(download);
  const printed = selfTestVersion(test.stdout);
  if (test.code !== 0) {
    throw new Error(
      `The new executable failed its self-test (exit code ${test.code ?? 'none'}): not installed`,
    );
  }
  if (printed !== build.version) {
    throw new Error(
      `The new executable reports version ${printed ?? 'none'}, the update announced ${build.version}: not installed`,
    );
  }
  const m: Marker = {
    commandId,
    fromVersion: options.version,
    toVersion: build.version,
    state: 'applied',
    attempts: 0,
    appliedAt: new Date().toISOString(),
  };
  await writeMarker(m);
  await io.remove(previous);
  await io.rename(exe, previous);
  try {
    await io.rename(download, exe);
  } catch (err) {
    await io.rename(previous, exe);
    await io.remove(markerPath);
    throw err;
  }
  log?.info(`update: ${options.version} → ${build.version} swapped in; restarting`);
  return { restart: true };
}

/** The answer to the update that led to this start, from its marker; the leftovers removed. */
async function settleMarker(ctx: SwapContext, failed: string, m: Marker): Promise<SettledUpdate> {
  const { io, options, log, previous, markerPath } = ctx;
  await io.remove(markerPath);
  if (m.state === 'rolled_back') {
    await io.remove(failed);
    return {
      commandId: m.commandId,
      status: 'failed',
      result: { version: options.version, rolledBack: true },
      error: m.reason ?? `The update to ${m.toVersion} was rolled back`,
    };
  }
  if (m.toVersion !== options.version) {
    return {
      commandId: m.commandId,
      status: 'failed',
      result: { version: options.version },
      error: `The update to ${m.toVersion} did not take effect; the agent still runs ${options.version}`,
    };
  }
  await io.remove(previous);
  log?.info(`update: now running ${options.version} (was ${m.fromVersion})`);
  return {
    commandId: m.commandId,
    status: 'completed',
    result: { version: options.version, previousVersion: m.fromVersion, startAttempts: m.attempts },
    error: null,
  };
}

export function createUpdater(options: UpdaterOptions) {
  const io: UpdateIo = { ...defaultIo, ...options.io };
  const log = options.log;
  const exe = options.exePath;
  const previous = `${exe}.previous`;
  const failed = `${exe}.failed`;
  const markerPath = path.join(options.stateDir, MARKER_FILE);
  const confirmTimeoutMs = options.confirmTimeoutMs ?? DEFAULT_CONFIRM_TIMEOUT_MS;
  const maxAttempts = options.maxStartAttempts ?? MAX_START_ATTEMPTS;
  let marker: Marker | null = null;
  let watchdog: NodeJS.Timeout | null = null;
  let applying = false;

  async function readMarker(): Promise<Marker | null> {
    try {
      const parsed = Marker.safeParse(JSON.parse((await io.readFile(markerPath)).toString('utf8')));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  const writeMarker = (m: Marker) => io.writeFile(markerPath, JSON.stringify(m, null, 2) + '\n');

  /** Puts the previous executable back; the caller exits so the service manager starts it. */
  async function rollback(m: Marker, reason: string): Promise<boolean> {
    if (!(await io.exists(previous))) {
      log?.error('update: cannot roll back, the previous executable is missing', { previous });
      return false;
    }
    await io.remove(failed);
    await io.rename(exe, failed);
    await io.rename(previous, exe);
    await writeMarker({ ...m, state: 'rolled_back', reason });
    log?.error(`update: rolled back to ${m.fromVersion}`, { reason });
    return true;
  }

  return {
    /**
     * Before connecting: count this start of a freshly applied version and roll back after too
     * many, or arm the watchdog that rolls back when no welcome comes in time.
     */
    async beforeStart(): Promise<{ action: 'continue' } | { action: 'exit'; code: number }> {
      marker = await readMarker();
      if (!marker || marker.state !== 'applied' || marker.toVersion !== options.version) {
        return { action: 'continue' };
      }
      const m: Marker = { ...marker, attempts: marker.attempts + 1 };
      marker = m;
      await writeMarker(m);
      if (m.attempts > maxAttempts) {
        const reason = `The new version ${m.toVersion} did not reach the server in ${maxAttempts} starts; rolled back to ${m.fromVersion}`;
        if (await rollback(m, reason)) {
          return { action: 'exit', code: ROLLBACK_EXIT_CODE };
        }
        return { action: 'continue' };
      }
      watchdog = setTimeout(() => {
        const reason = `The new version ${m.toVersion} was not welcomed by the server within ${Math.round(confirmTimeoutMs / 1000)} s; rolled back to ${m.fromVersion}`;
        void rollback(m, reason).then((done) => {
          if (done) {
            io.exit(ROLLBACK_EXIT_CODE);
          }
        });
      }, confirmTimeoutMs);
      watchdog.unref();
      return { action: 'continue' };
    },

    /** The update command this process answers itself once connected (so it is not run again). */
    pendingCommandId(): string | null {
      return marker?.commandId ?? null;
    },

    /** After a welcome: the answer to the update that led here, and the leftovers cleaned up. */
    async settle(): Promise<SettledUpdate | null> {
      if (watchdog) {
        clearTimeout(watchdog);
        watchdog = null;
      }
      const m = marker ?? (await readMarker());
      marker = null;
      if (!m) {
        return null;
      }
      return settleMarker({ io, options, log, exe, previous, markerPath, writeMarker }, failed, m);
    },

    /**
     * Downloads, verifies, self-tests and swaps in the build of this platform. `restart` means
     * the process must exit now (UPDATE_EXIT_CODE) for the new version to start.
     */
    async apply(commandId: string, command: UpdateAgentCommand): Promise<ApplyOutcome> {
      if (!options.isPackaged) {
        throw new Error(releaseMessages.needsPackagedAgent);
      }
      const platform = platformOf(options.platform ?? process.platform, options.arch ?? process.arch);
      const build = command.builds.find((b) => b.platform === platform);
      if (!platform || !build) {
        throw new Error(
          `The update names no build for this agent's platform (${platform ?? `${options.platform ?? process.platform}-${options.arch ?? process.arch}`})`,
        );
      }
      if (build.version === options.version) {
        return { restart: false, result: { version: options.version, alreadyCurrent: true } };
      }
      if (applying) {
        throw new Error('An update is already being applied');
      }
      applying = true;
      // beside the executable (same filesystem: the renames are atomic); on Windows it keeps the
      // .exe extension, so it can be started for its self-test
      const download = /\.exe$/i.test(exe)
        ? exe.replace(/\.exe$/i, '.download.exe')
        : path.join(path.dirname(exe), `.${path.basename(exe)}.download`);
      try {
        return await downloadAndSwap(
          { io, options, log, exe, previous, markerPath, writeMarker },
          commandId,
          build,
          download,
        );
      } catch (err) {
        await io.remove(download).catch(() => undefined);
        throw err;
      } finally {
        applying = false;
      }
    },
  };
}

export type Updater = ReturnType<typeof createUpdater>;
