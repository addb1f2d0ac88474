import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AgentRelease,
  AgentReleaseDownloadQuery,
  AgentReleasePlatformParams,
  UpdateAgentsBody,
  UpdateAgentsResponse,
} from '@outpost/contract/agent-releases';
import { apiSuccess } from '@outpost/contract/envelope';
import type { AgentReleasesService } from './agent-releases.service';
import type { createAgentUpdateService } from './agent-update.service';

type AgentUpdateService = ReturnType<typeof createAgentUpdateService>;

const ok = <T>(data: T) => ({ success: true as const, data });

/**
 * Under /api/agent, public: the releases, their downloads and the install scripts. A device has
 * no credentials before it is enrolled, so the install script must be able to download the
 * executable (as MeshCentral's agent download); the executable carries no secret, and the
 * integrity check is the sha256 written into the script (same origin, same TLS connection as the
 * administrator's command) and into the update command (the agent's authenticated socket).
 * `?encoding=br|xz|gz` serves a compressed form as an opaque file (no Content-Encoding: the
 * client decompresses it itself and checks the executable's sha256, X-Checksum-Sha256).
 */
export const agentReleaseRoutes: FastifyPluginCallbackZod<{ service: AgentReleasesService }> = (
  app,
  opts,
  done,
) => {
  const tags = ['agent'];
  const { service } = opts;

  app.get(
    '/releases',
    {
      config: { access: 'public' },
      schema: { tags, security: [], response: { 200: apiSuccess(z.array(AgentRelease)) } },
    },
    async () => ok(await service.list()),
  );

  app.get(
    '/releases/:platform',
    {
      config: { access: 'public' },
      schema: {
        tags,
        security: [],
        params: AgentReleasePlatformParams,
        querystring: AgentReleaseDownloadQuery,
      },
    },
    async (request, reply) => {
      const download = await service.download(request.params.platform, request.query.encoding);
      if (download.compressedSha256) {
        reply.header('x-compressed-sha256', download.compressedSha256);
      }
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', String(download.size))
        .header('content-disposition', `attachment; filename="${download.fileName}"`)
        .header('x-checksum-sha256', download.sha256)
        .header('x-agent-version', download.version)
        .header('cache-control', 'no-cache')
        .send(download.stream);
    },
  );

  const scriptRoute = (kind: 'sh' | 'ps1', contentType: string) =>
    app.get(
      `/install.${kind}`,
      { config: { access: 'public' }, schema: { tags, security: [] } },
      async (request, reply) =>
        reply
          .header('content-type', contentType)
          .header('cache-control', 'no-store')
          .send(await service.installScript(kind, request)),
    );
  scriptRoute('sh', 'text/x-shellscript; charset=utf-8');
  scriptRoute('ps1', 'text/plain; charset=utf-8');
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
