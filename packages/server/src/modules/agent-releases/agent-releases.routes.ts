import fs from 'node:fs';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AgentPlatform,
  AgentRelease,
  AgentReleasePlatformParams,
  UpdateAgentsBody,
  UpdateAgentsResponse,
  releaseMessages,
} from '@outpost/contract/agent-releases';
import { apiSuccess } from '@outpost/contract/envelope';
import { badRequest, notFound } from '../../lib/errors';
import type { createAgentUpdateService } from './agent-update.service';
import { installPs1, installSh, scriptOrigin } from './install-scripts';
import type { PublishedRelease, ReleaseStore } from './release-store';

type AgentUpdateService = ReturnType<typeof createAgentUpdateService>;

const ok = <T>(data: T) => ({ success: true as const, data });
const publicView = ({ filePath: _f, ...release }: PublishedRelease): AgentRelease => release;

/**
 * Under /api/agent, public: the releases, their downloads and the install scripts. A device has
 * no credentials before it is enrolled, so the install script must be able to download the
 * executable (as MeshCentral's agent download); the executable carries no secret, and the
 * integrity check is the sha256 written into the script (same origin, same TLS connection as the
 * administrator's command) and into the update command (the agent's authenticated socket).
 */
export const agentReleaseRoutes: FastifyPluginCallbackZod<{ releases: ReleaseStore }> = (app, opts, done) => {
  const tags = ['agent'];
  const { releases } = opts;

  const originOf = (request: { protocol: string; host: string }) => {
    const origin = scriptOrigin(request.protocol, request.host);
    if (!origin) {
      throw badRequest('The request names no valid server address (Host header)', 'INVALID_HOST');
    }
    return origin;
  };

  app.get(
    '/releases',
    {
      config: { access: 'public' },
      schema: { tags, security: [], response: { 200: apiSuccess(z.array(AgentRelease)) } },
    },
    async () => ok((await releases.list()).map(publicView)),
  );

  app.get(
    '/releases/:platform',
    {
      config: { access: 'public' },
      schema: { tags, security: [], params: AgentReleasePlatformParams },
    },
    async (request, reply) => {
      const parsed = AgentPlatform.safeParse(request.params.platform);
      if (!parsed.success) {
        throw notFound(releaseMessages.unknownPlatform(request.params.platform), 'UNKNOWN_PLATFORM');
      }
      const release = await releases.get(parsed.data);
      if (!release) {
        throw notFound(releaseMessages.notPublished(parsed.data), 'RELEASE_NOT_PUBLISHED');
      }
      let stream: fs.ReadStream;
      try {
        const handle = await fs.promises.open(release.filePath, 'r');
        stream = handle.createReadStream();
      } catch {
        throw notFound(releaseMessages.notPublished(parsed.data), 'RELEASE_NOT_PUBLISHED');
      }
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', String(release.size))
        .header('content-disposition', `attachment; filename="${release.file_name}"`)
        .header('x-checksum-sha256', release.sha256)
        .header('x-agent-version', release.version)
        .header('cache-control', 'no-cache')
        .send(stream);
    },
  );

  app.get(
    '/install.sh',
    { config: { access: 'public' }, schema: { tags, security: [] } },
    async (request, reply) => {
      const script = installSh(originOf(request), await releases.list());
      return reply
        .header('content-type', 'text/x-shellscript; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(script);
    },
  );

  app.get(
    '/install.ps1',
    { config: { access: 'public' }, schema: { tags, security: [] } },
    async (request, reply) => {
      const script = installPs1(originOf(request), await releases.list());
      return reply
        .header('content-type', 'text/plain; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(script);
    },
  );
  done();
};

/** Under /api/customer: update agents (admin). */
export const agentUpdateRoutes: FastifyPluginCallbackZod<{ service: AgentUpdateService }> = (
  app,
  opts,
  done,
) => {
  const { service } = opts;
  app.post(
    '/agents/update',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['agents'],
        body: UpdateAgentsBody,
        response: { 200: apiSuccess(UpdateAgentsResponse) },
      },
    },
    async (request) => ok(await service.update(request.ctx, request.body)),
  );
  done();
};
