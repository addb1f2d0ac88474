import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { apiSuccess, MessageOnly } from '@outpost/contract/envelope';
import {
  GroupCreateBody,
  GroupDetail,
  GroupIdParams,
  GroupListQuery,
  GroupListResponse,
  GroupMembersChangeBody,
  GroupMembersChangeResponse,
  GroupMembersQuery,
  GroupMembersResponse,
  GroupPreviewBody,
  GroupPreviewResponse,
  GroupUpdateBody,
} from '@outpost/contract/groups';
import { sendCsv, wantsCsv } from '../../lib/csv';
import type { GroupsService } from './groups.service';

export type GroupsRoutesOptions = { service: GroupsService };

const ok = <T>(data: T) => ({ success: true as const, data });
const tags = ['groups'];

// docs/product/device-sets.md#groups "Calls". Every route is open to members; the service
// decides per group (owner scope) and per device (site scope).
export const groupsRoutes: FastifyPluginCallbackZod<GroupsRoutesOptions> = (app, { service }, done) => {
  app.get(
    '/groups',
    {
      config: { access: 'member' },
      schema: { tags, querystring: GroupListQuery, response: { 200: apiSuccess(GroupListResponse) } },
    },
    async (request) => ok(await service.list(request.ctx, request.query)),
  );

  app.post(
    '/groups',
    {
      config: { access: 'member' },
      schema: { tags, body: GroupCreateBody, response: { 200: apiSuccess(GroupDetail) } },
    },
    async (request) => ok(await service.create(request.ctx, request.body)),
  );

  app.post(
    '/groups/preview',
    {
      config: { access: 'member' },
      schema: { tags, body: GroupPreviewBody, response: { 200: apiSuccess(GroupPreviewResponse) } },
    },
    async (request) => ok(await service.preview(request.ctx, request.body)),
  );

  app.get(
    '/groups/:id',
    {
      config: { access: 'member' },
      schema: { tags, params: GroupIdParams, response: { 200: apiSuccess(GroupDetail) } },
    },
    async (request) => ok(await service.get(request.ctx, request.params.id)),
  );

  app.put(
    '/groups/:id',
    {
      config: { access: 'member' },
      schema: {
        tags,
        params: GroupIdParams,
        body: GroupUpdateBody,
        response: { 200: apiSuccess(GroupDetail) },
      },
    },
    async (request) => ok(await service.update(request.ctx, request.params.id, request.body)),
  );

  app.delete(
    '/groups/:id',
    {
      config: { access: 'member' },
      schema: { tags, params: GroupIdParams, response: { 200: apiSuccess(MessageOnly) } },
    },
    async (request) => {
      await service.remove(request.ctx, request.params.id);
      return ok({ message: 'Group deleted' });
    },
  );

  app.get(
    '/groups/:id/members',
    {
      config: { access: 'member' },
      schema: {
        tags,
        params: GroupIdParams,
        querystring: GroupMembersQuery,
        response: { 200: apiSuccess(GroupMembersResponse) },
      },
    },
    async (request, reply) =>
      wantsCsv(request.headers.accept)
        ? sendCsv(reply, await service.exportMembers(request.ctx, request.params.id))
        : ok(await service.members(request.ctx, request.params.id, request.query)),
  );

  app.post(
    '/groups/:id/members',
    {
      config: { access: 'member' },
      schema: {
        tags,
        params: GroupIdParams,
        body: GroupMembersChangeBody,
        response: { 200: apiSuccess(GroupMembersChangeResponse) },
      },
    },
    async (request) => ok(await service.addMembers(request.ctx, request.params.id, request.body.device_ids)),
  );

  app.delete(
    '/groups/:id/members',
    {
      config: { access: 'member' },
      schema: {
        tags,
        params: GroupIdParams,
        body: GroupMembersChangeBody,
        response: { 200: apiSuccess(GroupMembersChangeResponse) },
      },
    },
    async (request) =>
      ok(await service.removeMembers(request.ctx, request.params.id, request.body.device_ids)),
  );
  done();
};
