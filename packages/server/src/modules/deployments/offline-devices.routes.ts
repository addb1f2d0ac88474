import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import {
  DeploymentIdParams,
  EndWaitingDevicesBody,
  EndWaitingDevicesResponse,
} from '@outpost/contract/deployments';
import { apiSuccess } from '@outpost/contract/envelope';
import type { OfflineDevicesService } from './offline-devices.service';

const ok = <T>(data: T) => ({ success: true as const, data });

// docs/architecture.md, "Devices a job waits for": an administrator ends the parts of a job whose
// devices went offline (fail or cancel), now instead of at the offline expiry.
export const offlineDevicesRoutes: FastifyPluginCallbackZod<{ service: OfflineDevicesService }> = (
  app,
  opts,
  done,
) => {
  app.post(
    '/deployments/:id/waiting-devices/end',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['deployments'],
        params: DeploymentIdParams,
        body: EndWaitingDevicesBody,
        response: { 200: apiSuccess(EndWaitingDevicesResponse) },
      },
    },
    async (request) => ok(await opts.service.end(request.ctx, request.params.id, request.body)),
  );
  done();
};
