import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { apiSuccess } from '@outpost/contract/envelope';
import {
  BulkDeleteUsersBody,
  DeleteUsersResponse,
  User,
  UserCreateBody,
  UserIdParams,
  UserListQuery,
  UserListResponse,
  UserUpdateBody,
} from '@outpost/contract/users';
import { useSpecValidationMessages } from '../../plugins/spec-messages';
import type { UsersService } from './users.service';

const ok = <T>(data: T) => ({ success: true as const, data });

// docs/product/administration.md#calls. Administrators only.
export const usersRoutes: FastifyPluginCallbackZod<{ service: UsersService }> = (app, opts, done) => {
  const { service } = opts;
  const tags = ['users'];
  const config = { access: 'admin' as const };
  useSpecValidationMessages(app);

  app.get(
    '/users',
    { config, schema: { tags, querystring: UserListQuery, response: { 200: apiSuccess(UserListResponse) } } },
    async (request) => ok(await service.list(request.ctx, request.query)),
  );

  app.post(
    '/users',
    { config, schema: { tags, body: UserCreateBody, response: { 200: apiSuccess(User) } } },
    async (request) => ok(await service.create(request.ctx, request.body)),
  );

  app.delete(
    '/users',
    {
      config,
      schema: { tags, body: BulkDeleteUsersBody, response: { 200: apiSuccess(DeleteUsersResponse) } },
    },
    async (request) => ok(await service.removeMany(request.ctx, request.body)),
  );

  app.get(
    '/users/:id',
    { config, schema: { tags, params: UserIdParams, response: { 200: apiSuccess(User) } } },
    async (request) => ok(await service.get(request.ctx, request.params.id)),
  );

  app.put(
    '/users/:id',
    {
      config,
      schema: { tags, params: UserIdParams, body: UserUpdateBody, response: { 200: apiSuccess(User) } },
    },
    async (request) => ok(await service.update(request.ctx, request.params.id, request.body)),
  );

  app.delete(
    '/users/:id',
    { config, schema: { tags, params: UserIdParams, response: { 200: apiSuccess(DeleteUsersResponse) } } },
    async (request) => ok(await service.remove(request.ctx, request.params.id)),
  );
  done();
};
