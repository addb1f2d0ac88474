import type { FastifySerializerCompiler } from 'fastify';
import fastJson from 'fast-json-stringify';
import type { Schema as FastJsonSchema } from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

// Responses (docs/architecture.md#server). fastify-type-provider-zod's serializer runs z.safeEncode over the
// whole payload and then JSON.stringify, for every response: about 5 % of a cheap request's CPU.
// Fastify's own way is fast-json-stringify compiled from the route's JSON schema, and a response
// schema that is plain data (no transform, codec, default or other step that changes a value on
// the way out) has one that says the same: zod's output JSON schema. Such routes are written by
// fast-json-stringify, every other one by the zod path as before. The OpenAPI document is not
// concerned (@fastify/swagger reads the zod schemas through jsonSchemaTransform).
//
// What fast-json-stringify does not do is validate: a missing required field still fails (a
// 500, unless the object has an optional field before it: see forFastJson), but a value of the
// wrong type is coerced instead of refused. The handlers' return types
// are checked against the same schemas at compile time (the zod type provider), and with
// `check` (the tests) every response is also encoded through zod: one that does not match its
// schema is the 500 it always was, and one that fast-json-stringify writes differently from
// JSON.stringify of zod's output fails too.

type Serialize = (data: unknown) => string;

/** Zod types whose output is their input, unchanged; anything else is serialised through zod. */
const PLAIN = new Set([
  'object',
  'array',
  'string',
  'number',
  'int',
  'boolean',
  'null',
  'literal',
  'enum',
  'nullable',
  'optional',
  'readonly',
  'union',
  'record',
  'unknown',
  'any',
]);

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  keyType?: z.ZodType;
  valueType?: z.ZodType;
};

/** Whether encoding through this schema changes nothing: plain types all the way down. */
export function isPlainSchema(schema: z.ZodType, seen = new Set<z.ZodType>()): boolean {
  if (seen.has(schema)) {
    return false; // recursive: leave it to zod
  }
  seen.add(schema);
  const def = schema._zod.def as unknown as Def;
  if (!PLAIN.has(def.type)) {
    return false;
  }
  const children = [
    ...Object.values(def.shape ?? {}),
    ...(def.options ?? []),
    ...[def.element, def.innerType, def.keyType, def.valueType].filter((c) => c !== undefined),
  ];
  return children.every((child) => isPlainSchema(child, new Set(seen)));
}

/** JSON schema keywords fast-json-stringify writes by without a runtime validator. */
const SERIALISABLE = new Set([
  'type',
  'properties',
  'required',
  'items',
  'additionalProperties',
  'propertyNames',
  'const',
  'enum',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'pattern',
  'description',
]);

type JsonSchema = { [keyword: string]: unknown };
const isNull = (s: unknown) => (s as JsonSchema).type === 'null' && Object.keys(s as object).length === 1;

/**
 * zod's JSON schema in the form fast-json-stringify serialises directly: a nullable value
 * (`anyOf: [X, {type: 'null'}]`) as `type: [X's type, 'null']`, string formats dropped (it
 * would turn a 'date-time' null into ""). Null when a keyword is left that needs a validator at
 * run time (another union, a reference): those routes keep the zod path.
 */
export function forFastJson(schema: unknown): JsonSchema | null {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return null;
  }
  let node = { ...(schema as JsonSchema) };
  delete node.$schema;
  delete node.format;
  if (Array.isArray(node.anyOf) && node.anyOf.length === 2 && node.anyOf.some(isNull)) {
    const { anyOf, ...rest } = node;
    const other = (anyOf as unknown[]).find((s) => !isNull(s)) as JsonSchema;
    if (typeof other.type !== 'string') {
      return null;
    }
    node = { ...rest, ...other, type: [other.type, 'null'] };
    delete node.format;
  }
  // fast-json-stringify writes required properties before optional ones; where that would
  // reorder an object's keys, its properties are all written as optional (zod's check in the
  // tests still requires them), so the bytes stay those of JSON.stringify in the schema's order
  if (Array.isArray(node.required) && node.properties) {
    const required = node.required as string[];
    const order = Object.keys(node.properties);
    if (!order.slice(0, required.length).every((key) => required.includes(key))) {
      delete node.required;
    }
  }
  const out: JsonSchema = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (!SERIALISABLE.has(keyword)) {
      return null;
    }
    if (keyword === 'properties') {
      const properties: JsonSchema = {};
      for (const [name, property] of Object.entries(value as JsonSchema)) {
        const converted = forFastJson(property);
        if (!converted) {
          return null;
        }
        properties[name] = converted;
      }
      out.properties = properties;
    } else if (keyword === 'items' || (keyword === 'additionalProperties' && typeof value === 'object')) {
      const converted = forFastJson(value);
      if (!converted) {
        return null;
      }
      out[keyword] = converted;
    } else {
      out[keyword] = value;
    }
  }
  return out;
}

/** The fast-json-stringify schema of a plain zod schema, or null when it has none. */
export function fastJsonSchema(schema: z.ZodType): JsonSchema | null {
  if (!isPlainSchema(schema)) {
    return null;
  }
  try {
    return forFastJson(z.toJSONSchema(schema, { io: 'output', unrepresentable: 'throw' }));
  } catch {
    return null;
  }
}

/**
 * The serializer compiler: fast-json-stringify for plain response schemas (compiled at a route's
 * first response, so start-up does not compile a hundred of them), the zod type provider's
 * otherwise. `check`: also encode through zod, and fail on a difference (tests).
 */
export function responseSerializerCompiler(options: {
  check: boolean;
}): FastifySerializerCompiler<z.ZodType> {
  return (route) => {
    const viaZod: Serialize = zodSerializerCompiler(route);
    const jsonSchema = route.schema instanceof z.ZodType ? fastJsonSchema(route.schema) : null;
    if (!jsonSchema) {
      return viaZod;
    }
    let fast: Serialize | null = null;
    return (data) => {
      fast ??= fastJson(jsonSchema as unknown as FastJsonSchema);
      const written = fast(data);
      if (options.check) {
        const expected = viaZod(data);
        if (written !== expected) {
          throw new Error(
            `${route.method} ${route.url}: fast-json-stringify wrote ${written.slice(0, 2_000)} where zod wrote ${expected.slice(0, 2_000)}`,
          );
        }
      }
      return written;
    };
  };
}
