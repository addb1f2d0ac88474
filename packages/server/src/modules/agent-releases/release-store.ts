import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger } from 'fastify';
import {
  AgentReleaseSidecar,
  PLATFORM_OS_TYPE,
  agentFileName,
  AGENT_PLATFORMS,
} from '@outpost/contract/agent-releases';
import type { AgentPlatform, AgentRelease } from '@outpost/contract/agent-releases';

// The published agent executables: AGENT_RELEASES_DIR holds what the build script
// wrote, `outpost-agent-<platform>[.exe]` and its sidecar `<file>.json`. A sidecar is only
// believed once the executable's size and sha256 were computed here and match it; the result is
// kept per (size, mtime) of both files, so a rebuild is verified again on the next look.

export type PublishedRelease = AgentRelease & { filePath: string };

export type ReleaseStore = {
  /** the verified releases, one per platform at most, in AGENT_PLATFORMS order */
  list(): Promise<PublishedRelease[]>;
  get(platform: AgentPlatform): Promise<PublishedRelease | null>;
};

async function sha256Of(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

type Cached = { key: string; release: Promise<PublishedRelease | null> };

export function createReleaseStore(dir: string, log?: Pick<FastifyBaseLogger, 'warn'>): ReleaseStore {
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
      filePath,
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
    async list() {
      const all = await Promise.all(AGENT_PLATFORMS.map((p) => get(p)));
      return all.filter((r): r is PublishedRelease => r !== null);
    },
  };
}
