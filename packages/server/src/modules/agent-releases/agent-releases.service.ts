import fs from 'node:fs';
import {
  AgentEncoding,
  AgentPlatform,
  agentFileName,
  releaseMessages,
} from '@outpost/contract/agent-releases';
import type { AgentRelease } from '@outpost/contract/agent-releases';
import { badRequest, notFound } from '../../lib/errors';
import { installPs1, installSh, scriptOrigin } from './install-scripts';
import type { PublishedRelease, ReleaseStore } from './release-store';

// The public side of agent releases (GET /api/agent/…): the list, the downloads (the executable,
// or one of its compressed forms) and the install scripts. The routes only speak HTTP.

export type AgentReleasesDeps = { releases: ReleaseStore };

/** A download: the stream and what its response headers say. */
export type ReleaseDownload = {
  stream: fs.ReadStream;
  /** bytes sent (the compressed size for an encoding) */
  size: number;
  fileName: string;
  /** the sha256 of the executable (after decompressing) */
  sha256: string;
  /** the sha256 of the bytes sent, when compressed */
  compressedSha256: string | null;
  version: string;
};

const publicView = ({ filePath: _f, files: _c, ...release }: PublishedRelease): AgentRelease => release;

export function createAgentReleasesService({ releases }: AgentReleasesDeps) {
  const originOf = (protocol: string, host: string) => {
    const origin = scriptOrigin(protocol, host);
    if (!origin) {
      throw badRequest('The request names no valid server address (Host header)', 'INVALID_HOST');
    }
    return origin;
  };

  return {
    async list(): Promise<AgentRelease[]> {
      return (await releases.list()).map(publicView);
    },

    async download(platformParam: string, encodingParam?: string): Promise<ReleaseDownload> {
      const platform = AgentPlatform.safeParse(platformParam);
      if (!platform.success) {
        throw notFound(releaseMessages.unknownPlatform(platformParam), 'UNKNOWN_PLATFORM');
      }
      const encoding = encodingParam ? AgentEncoding.safeParse(encodingParam) : null;
      if (encoding && !encoding.success) {
        throw badRequest(releaseMessages.unknownEncoding(encodingParam ?? ''), 'UNKNOWN_ENCODING');
      }
      const release = await releases.get(platform.data);
      if (!release) {
        throw notFound(releaseMessages.notPublished(platform.data), 'RELEASE_NOT_PUBLISHED');
      }
      const compressed = encoding ? release.files[encoding.data] : undefined;
      if (encoding && !compressed) {
        throw notFound(releaseMessages.notCompressed(platform.data, encoding.data), 'RELEASE_NOT_COMPRESSED');
      }
      let stream: fs.ReadStream;
      try {
        const handle = await fs.promises.open(compressed?.filePath ?? release.filePath, 'r');
        stream = handle.createReadStream();
      } catch {
        throw notFound(releaseMessages.notPublished(platform.data), 'RELEASE_NOT_PUBLISHED');
      }
      return {
        stream,
        size: compressed?.size ?? release.size,
        fileName: encoding?.data ? `${agentFileName(platform.data)}.${encoding.data}` : release.file_name,
        sha256: release.sha256,
        compressedSha256: compressed?.sha256 ?? null,
        version: release.version,
      };
    },

    /** The Linux and macOS (sh) or Windows (ps1) install script for this request's server address. */
    async installScript(kind: 'sh' | 'ps1', request: { protocol: string; host: string }): Promise<string> {
      const origin = originOf(request.protocol, request.host);
      const published = await releases.list();
      return kind === 'sh'
        ? installSh(origin, published)
        : installPs1(origin, published, { requireSignature: releases.requireSignature });
    },
  };
}
export type AgentReleasesService = ReturnType<typeof createAgentReleasesService>;
