import type { FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { FieldError } from '@outpost/contract/envelope';

/**
 * For route plugins whose contract schemas carry the product's validation messages word for word
 * ('Email is required', 'Site code must be 6 characters or less'): a validation error's `error`
 * is the first message alone, without the field path the global handler adds, because the
 * screens show the server's error text. `fields` still lists every failing field with its path.
 * Anything else goes on to the global handler (plugins/errors.ts).
 */
export function useSpecValidationMessages(app: FastifyInstance): void {
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
}
