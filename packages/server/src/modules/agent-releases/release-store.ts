import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger } from 'fastify';
import {
  AGENT_ENCODINGS,
  AgentReleaseSidecar,
  PLATFORM_OS_TYPE,
  agentFileName,
  AGENT_PLATFORMS,
} from '@outpost/contract/agent-releases';
import type { AgentEncoding, AgentPlatform, AgentRelease } from '@outpost/contract/agent-releases';
import { verifyAuthenticode } from '@outpost/contract/authenticode';

// The published agent executables: AGENT_RELEASES_DIR holds what the build script
// wrote, `outpost-agent-<platform>[.exe]` and its sidecar `<file>.json`. A sidecar is only
// believed once the executable's size and sha256 were computed here and match it; the result is
// kept per (size, mtime) of both files, so a rebuild is verified again on the next look.
// The compressed forms the sidecar lists (`<file>.br|.xz|.gz`) are served when their size and
// sha256 match too. A Windows executable whose sidecar names a signer is published only when its
// Authenticode signature verifies with that signer; with requireSignature, never unsigned.

export type CompressedRelease = { filePath: string; size: number; sha256: string };
export type PublishedRelease = AgentRelease & {
  filePath: string;
  files: Partial<Record<AgentEncoding, CompressedRelease>>;
};

export type ReleaseStore = {
  /** the verified releases, one per platform at most, in AGENT_PLATFORMS order */
  list(): Promise<PublishedRelease[]>;
  get(platform: AgentPlatform): Promise<PublishedRelease | null>;
  /** Windows releases are published only signed (OUTPOST_AGENT_REQUIRE_SIGNATURE) */
  readonly requireSignature: boolean;
};

export type ReleaseStoreOptions = { requireSignature?: boolean };

async function sha256Of(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

type Cached = { key: string; release: Promise<PublishedRelease | null> };

/** The compressed files the sidecar lists whose size and sha256 match. */
async function compressedFiles(
  filePath: string,
  sidecar: AgentReleaseSidecar,
  log?: Pick<FastifyBaseLogger, 'warn'>,
): Promise<PublishedRelease['files']> {
  const files: PublishedRelease['files'] = {};
  for (const encoding of AGENT_ENCODINGS) {
    const announced = sidecar.compressed?.[encoding];
    if (!announced) {
      continue;
    }
    const file = `${filePath}.${encoding}`;
    try {
      const { size } = await fs.promises.stat(file);
      const sha256 = await sha256Of(file);
      if (size === announced.size && sha256 === announced.sha256) {
        files[encoding] = { filePath: file, size, sha256 };
        continue;
      }
      log?.warn({ file, size, sha256 }, 'compressed agent release does not match its sidecar');
    } catch (err) {
      log?.warn({ file, err: String(err) }, 'compressed agent release unreadable');
    }
  }
  return files;
}

/** Null when the signature is acceptable, otherwise why the release is not published. */
async function signatureProblem(
  platform: AgentPlatform,
  filePath: string,
  sidecar: AgentReleaseSidecar,
  requireSignature: boolean,
): Promise<string | null> {
  if (!platform.startsWith('win-')) {
    return null;
  }
  if (!sidecar.signer) {
    return requireSignature ? 'unsigned Windows release (OUTPOST_AGENT_REQUIRE_SIGNATURE)' : null;
  }
  const result = await verifyAuthenticode(filePath, sidecar.signer.sha256);
  return result.valid ? null : `Authenticode signature refused: ${result.reason}`;
}

export function createReleaseStore(
  dir: string,
  log?: Pick<FastifyBaseLogger, 'warn'>,
  options: ReleaseStoreOptions = {},
): ReleaseStore {
  const requireSignature = options.requireSignature ?? false;
  const cache = new Map<AgentPlatform, Cached>();

  async function verify(
    platform: AgentPlatform,
    filePath: string,
    sidecarPath: string,
    mtime: Date,
  ): Promise<PublishedRelease | null> {
    let sidecar: AgentReleaseSidecar;
    try {
      const parsed = AgentReleaseSidecar.safeParse(
        JSON.parse(await fs.promises.readFile(sidecarPath, 'utf8')),
      );
      if (!parsed.success) {
        log?.warn(
          { file: sidecarPath, issue: parsed.error.issues[0]?.message },
          'agent release sidecar invalid',
        );
        return null;
      }
      sidecar = parsed.data;
    } catch (err) {
      log?.warn({ file: sidecarPath, err: String(err) }, 'agent release sidecar unreadable');
      return null;
    }
    if (sidecar.platform !== platform) {
      log?.warn(
        { file: sidecarPath, platform: sidecar.platform },
        'agent release sidecar names another platform',
      );
      return null;
    }
    const { size } = await fs.promises.stat(filePath);
    const sha256 = await sha256Of(filePath);
    if (size !== sidecar.size || sha256 !== sidecar.sha256) {
      log?.warn(
        { file: filePath, size, sha256, sidecar: { size: sidecar.size, sha256: sidecar.sha256 } },
        'agent release does not match its sidecar; not published',
      );
      return null;
    }
    const refused = await signatureProblem(platform, filePath, sidecar, requireSignature);
    if (refused) {
      log?.warn({ file: filePath, reason: refused }, 'agent release not published');
      return null;
    }
    const files = await compressedFiles(filePath, sidecar, log);
    const compressed = Object.fromEntries(
      Object.entries(files).map(([encoding, file]) => [encoding, { size: file.size }]),
    );
    return {
      platform,
      os_type: PLATFORM_OS_TYPE[platform],
      version: sidecar.version,
      sha256,
      size,
      node: sidecar.node,
      file_name: agentFileName(platform),
      url: `/api/agent/releases/${platform}`,
      published_at: mtime.toISOString(),
      ...(sidecar.signer && { signer_sha256: sidecar.signer.sha256 }),
      ...(Object.keys(compressed).length > 0 && { compressed }),
      filePath,
      files,
    };
  }

  async function get(platform: AgentPlatform): Promise<PublishedRelease | null> {
    const filePath = path.join(dir, agentFileName(platform));
    const sidecarPath = `${filePath}.json`;
    let key: string;
    let mtime: Date;
    try {
      const [exe, side] = await Promise.all([fs.promises.stat(filePath), fs.promises.stat(sidecarPath)]);
      if (!exe.isFile() || !side.isFile()) {
        return null;
      }
      key = `${exe.size}:${exe.mtimeMs}:${exe.ino}:${side.size}:${side.mtimeMs}:${side.ino}`;
      mtime = exe.mtime;
    } catch {
      cache.delete(platform);
      return null;
    }
    const cached = cache.get(platform);
    if (cached?.key === key) {
      return cached.release;
    }
    const release = verify(platform, filePath, sidecarPath, mtime).catch((err: unknown) => {
      log?.warn({ file: filePath, err: String(err) }, 'agent release unreadable');
      return null;
    });
    cache.set(platform, { key, release });
    return release;
  }

  return {
    get,
    requireSignature,
    async list() {
      const all = await Promise.all(AGENT_PLATFORMS.map((p) => get(p)));
      return all.filter((r): r is PublishedRelease => r !== null);
    },
  };
}
