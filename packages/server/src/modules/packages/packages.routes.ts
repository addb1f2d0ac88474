import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiSuccess, MessageOnly } from '@outpost/contract/envelope';
import type { FieldError } from '@outpost/contract/envelope';
import {
  PackageCreateBody,
  PackageDetail,
  PackageDuplicateBody,
  PackageExport,
  PackageExportDocument,
  PackageIdParams,
  PackageImportQuery,
  PackageListQuery,
  PackageListResponse,
  PackageStep,
  PackageUpdateBody,
  StepBody,
  StepIdParams,
  StepReorderBody,
} from '@outpost/contract/packages';
import type { PackagesService } from './packages.service';

export type PackagesRoutesOptions = { service: PackagesService };

const ok = <T>(data: T) => ({ success: true as const, data });

type App = Parameters<FastifyPluginCallbackZod<PackagesRoutesOptions>>[0];
const tags = ['packages'];

// docs/product/packages.md#calls, plus duplicate, export and import (beyond the original product description).
export const packagesRoutes: FastifyPluginCallbackZod<PackagesRoutesOptions> = (app, opts, done) => {
  const { service } = opts;

  // The contract's schemas carry the product's messages ('Step name is required', 'Please fill in
  // required fields: …'); the builder shows the server's error text, so it must be those words
  // alone, without the field path the global handler adds. Anything else goes to that handler.
  app.setErrorHandler((err, _request, reply) => {
    if (!hasZodFastifySchemaValidationErrors(err)) {
      throw err;
    }
    const fields: FieldError[] = err.validation.map((v) => ({
      path: [err.validationContext, ...String(v.instancePath).split('/').filter(Boolean)].join('.'),
      message: v.message ?? 'Invalid value',
    }));
    return reply.status(400).send({
      success: false,
      error: fields[0]?.message ?? 'Invalid request',
      code: 'VALIDATION_ERROR',
      fields,
    });
  });

  packageRoutes(app, service);
  copyRoutes(app, service);
  stepRoutes(app, service);
  done();
};

/** A package itself: list, create, import, read, change, delete. */
function packageRoutes(app: App, service: PackagesService) {
  app.get(
    '/deployment-packages',
    {
      config: { access: 'member' },
      schema: { tags, querystring: PackageListQuery, response: { 200: apiSuccess(PackageListResponse) } },
    },
    async (request) => ok(await service.list(request.ctx, request.query)),
  );

  app.post(
    '/deployment-packages',
    {
      config: { access: 'member' },
      schema: { tags, body: PackageCreateBody, response: { 200: apiSuccess(PackageDetail) } },
    },
    async (request) => ok(await service.create(request.ctx, request.body)),
  );

  app.post(
    '/deployment-packages/import',
    {
      config: { access: 'member' },
      schema: {
        tags,
        querystring: PackageImportQuery,
        body: PackageExport,
        response: { 200: apiSuccess(PackageDetail) },
      },
    },
    async (request) => ok(await service.importPackage(request.ctx, request.body, request.query)),
  );

  app.get(
    '/deployment-packages/:id',
    {
      config: { access: 'member' },
      schema: { tags, params: PackageIdParams, response: { 200: apiSuccess(PackageDetail) } },
    },
    async (request) => ok(await service.get(request.ctx, request.params.id)),
  );

  app.put(
    '/deployment-packages/:id',
    {
      config: { access: 'member' },
      schema: {
        tags,
        params: PackageIdParams,
        body: PackageUpdateBody,
        response: { 200: apiSuccess(PackageDetail) },
      },
    },
    async (request) => ok(await service.update(request.ctx, request.params.id, request.body)),
  );

  app.delete(
    '/deployment-packages/:id',
    {
      config: { access: 'member' },
      schema: { tags, params: PackageIdParams, response: { 200: apiSuccess(MessageOnly) } },
    },
    async (request) => {
      await service.remove(request.ctx, request.params.id);
      return ok({ message: 'Package deleted' });
    },
  );
}

/** Copies of a package (beyond the original product description): duplicate and export. */
function copyRoutes(app: App, service: PackagesService) {
  app.post(
    '/deployment-packages/:id/duplicate',
    {
      config: { access: 'member' },
      schema: {
        tags,
        params: PackageIdParams,
        body: PackageDuplicateBody.default({}),
        response: { 200: apiSuccess(PackageDetail) },
      },
    },
    async (request) => ok(await service.duplicate(request.ctx, request.params.id, request.body)),
  );

  app.get(
    '/deployment-packages/:id/export',
    {
      config: { access: 'member' },
      schema: { tags, params: PackageIdParams, response: { 200: PackageExportDocument } },
    },
    async (request, reply) => {
      const doc = await service.exportPackage(request.ctx, request.params.id);
      const name = doc.package.name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 80) || 'package';
      reply.header('Content-Disposition', `attachment; filename="${name}.outpost-package.json"`);
      return doc;
    },
  );
}

/** A package's steps: add, reorder, change, delete. */
function stepRoutes(app: App, service: PackagesService) {
  app.post(
    '/deployment-packages/:id/steps',
    {
      config: { access: 'member' },
      schema: { tags, params: PackageIdParams, body: StepBody, response: { 200: apiSuccess(PackageStep) } },
    },
    async (request) => ok(await service.addStep(request.ctx, request.params.id, request.body)),
  );

  // Declared before /steps/:stepId; the static segment wins either way in find-my-way.
  app.put(
    '/deployment-packages/:id/steps/reorder',
    {
      config: { access: 'member' },
      schema: {
        tags,
        params: PackageIdParams,
        body: StepReorderBody,
        response: { 200: apiSuccess(z.array(PackageStep)) },
      },
    },
    async (request) => ok(await service.reorder(request.ctx, request.params.id, request.body)),
  );

  app.put(
    '/deployment-packages/:id/steps/:stepId',
    {
      config: { access: 'member' },
      schema: { tags, params: StepIdParams, body: StepBody, response: { 200: apiSuccess(PackageStep) } },
    },
    async (request) =>
      ok(await service.updateStep(request.ctx, request.params.id, request.params.stepId, request.body)),
  );

  app.delete(
    '/deployment-packages/:id/steps/:stepId',
    {
      config: { access: 'member' },
      schema: { tags, params: StepIdParams, response: { 200: apiSuccess(MessageOnly) } },
    },
    async (request) => {
      await service.removeStep(request.ctx, request.params.id, request.params.stepId);
      return ok({ message: 'Step deleted' });
    },
  );
}
