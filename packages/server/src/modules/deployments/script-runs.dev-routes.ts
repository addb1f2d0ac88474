import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Id } from '@outpost/contract/input';
import { OfflineChoice, SCRIPT_LANGUAGES, SCRIPT_LIMITS } from '@outpost/contract/scripts';
import { createSecretBox } from '../../lib/secret-box';
import type { ScriptRunner } from '../scripts/script-runner';

// A run of a script given whole (no library), only on a development or demo server and only for
// administrators: the integration and end-to-end tests of script runs start runs through it until
// the library's POST /customer/scripts/{id}/runs is beside it. Secrets are sealed as the library
// seals them (purpose 'scripts').
const DevScriptRunBody = z
  .object({
    name: z.string().min(1).max(SCRIPT_LIMITS.nameMax),
    language: z.enum(SCRIPT_LANGUAGES),
    body: z.string().min(1).max(SCRIPT_LIMITS.bodyMaxBytes),
    params: z.record(z.string().max(48), z.string().max(SCRIPT_LIMITS.paramValueMax)).default({}),
    secrets: z.record(z.string().max(48), z.string().max(SCRIPT_LIMITS.paramValueMax)).default({}),
    device_ids: z.array(Id).max(SCRIPT_LIMITS.runDevicesMax).optional(),
    group_id: Id.optional(),
    timeout_seconds: z
      .number()
      .int()
      .min(1)
      .max(SCRIPT_LIMITS.timeoutMax)
      .default(SCRIPT_LIMITS.timeoutDefault),
    offline: OfflineChoice.default('wait'),
  })
  .strict();

export const devScriptRunsRoutes: FastifyPluginCallbackZod<{
  runner: ScriptRunner;
  serverSecret: Uint8Array;
}> = (app, opts, done) => {
  const box = createSecretBox(opts.serverSecret, 'scripts');
  app.post(
    '/script-runs/dev',
    { config: { access: 'admin' }, schema: { tags: ['scripts'], body: DevScriptRunBody, hide: true } },
    async (request) => {
      const b = request.body;
      const sealed = Object.fromEntries(Object.entries(b.secrets).map(([k, v]) => [k, box.seal(v)]));
      const target = b.group_id !== undefined ? { groupId: b.group_id } : { deviceIds: b.device_ids ?? [] };
      const created = await opts.runner.create(
        request.ctx,
        {
          script_id: 0,
          script_name: b.name,
          version: 1,
          language: b.language,
          body: b.body,
          params: b.params,
          sealed_secrets: sealed,
          timeout_seconds: b.timeout_seconds,
          offline: b.offline,
        },
        target,
      );
      return { success: true as const, data: created };
    },
  );
  done();
};
