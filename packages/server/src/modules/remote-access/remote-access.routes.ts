import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiSuccess } from '@outpost/contract/envelope';
import { RemoteAccessSettings, RemoteAccessUpdate } from '@outpost/contract/remote-access';
import { useSpecValidationMessages } from '../../plugins/spec-messages';
import type { RemoteAccessService } from './remote-access.service';

const ok = <T>(data: T) => ({ success: true as const, data });
const View = RemoteAccessSettings.extend({ can_edit: z.boolean(), caller_allowed: z.boolean() });

// docs/product/remote-access.md#settings, under /api/customer: every member reads (the device
// detail shows or hides its Terminal and Files tabs by it); administrators of all sites change.
export const remoteAccessRoutes: FastifyPluginCallbackZod<{ service: RemoteAccessService }> = (
  app,
  opts,
  done,
) => {
  const { service } = opts;
  const tags = ['remote-access'];
  useSpecValidationMessages(app);

  app.get(
    '/settings/remote-access',
    { config: { access: 'member' as const }, schema: { tags, response: { 200: apiSuccess(View) } } },
    async (request) => ok(await service.get(request.ctx)),
  );
  app.put(
    '/settings/remote-access',
    {
      config: { access: 'admin' as const },
      schema: { tags, body: RemoteAccessUpdate, response: { 200: apiSuccess(View) } },
    },
    async (request) => ok(await service.update(request.ctx, request.body)),
  );
  done();
};
