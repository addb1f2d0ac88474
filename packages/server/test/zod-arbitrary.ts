import fc from 'fast-check';
import { z } from 'zod';

// fast-check arbitraries generated from a zod schema, for the route fuzzer
// (src/fuzz-routes.int.test.ts). The schema is read through zod's own JSON Schema export of its
// input side (z.toJSONSchema, io: 'input'): types, bounds, formats, patterns, enums, required
// keys; coercions, defaults and transforms are seen as the input they accept. Two flavours:
//
//   validShaped(schema)  values of the schema's shape (mostly valid; service rules may still refuse)
//   fuzzed(schema)       the same, but at every level a value may be replaced by garbage, required
//                        keys dropped and unknown keys added
//
// `garbage` is input with no shape at all: hostile strings (NUL, control characters, unicode,
// very long), numbers at and beyond every bound, wrong types, deep nesting, prototype keys.

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema | false;
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
};

/** The JSON Schema of what a zod schema accepts as input (unrepresentable parts: anything). */
export function inputJsonSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

const INT4_MAX = 2_147_483_647;

/** Strings that have broken servers: NUL, controls, quotes, paths, markup, numbers-as-text. */
const hostileStrings = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\t\r\n',
  '\u001b[31m',
  '\u202e\u200b\ufeff',
  '\ud800',
  '😀👩‍👩‍👧',
  "' OR 1=1 --",
  '"; drop table users; --',
  '%',
  '%00',
  '%zz',
  '_',
  '\\',
  '../../../etc/passwd',
  '/',
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'true',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1.5',
  '1e309',
  '2147483648',
  '9007199254740993',
  '99999999999999999999999',
  '0x10',
  ' 1',
  '１２３',
  '2026-13-45T99:99:99Z',
  'a'.repeat(5_000),
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...hostileStrings), weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
  {
    arbitrary: fc.string({ unit: fc.integer({ min: 0, max: 31 }).map((c) => String.fromCharCode(c)) }),
    weight: 1,
  },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }), weight: 2 },
  { arbitrary: fc.integer({ min: 300, max: 70_000 }).map((n) => 'x'.repeat(n)), weight: 1 },
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    0.5,
    1.5,
    INT4_MAX,
    INT4_MAX + 1,
    -INT4_MAX - 2,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER + 2,
    -Number.MAX_SAFE_INTEGER,
    1e21,
    1e308,
    -1e308,
    5e-324,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** A value nested `depth` levels deep (arrays or objects), past the server's input depth limit. */
const deepNesting: fc.Arbitrary<unknown> = fc
  .tuple(fc.integer({ min: 20, max: 200 }), fc.boolean())
  .map(([depth, arrays]) => {
    let value: unknown = 1;
    for (let i = 0; i < depth; i++) {
      value = arrays ? [value] : { a: value };
    }
    return value;
  });

/** Input with no shape at all. */
export const garbage: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: hostileString, weight: 4 },
  { arbitrary: hostileNumber, weight: 3 },
  { arbitrary: fc.constantFrom(null, true, false, [], {}), weight: 2 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 3 },
  { arbitrary: fc.array(hostileNumber, { maxLength: 5 }), weight: 1 },
  { arbitrary: fc.dictionary(hostileString, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 4 }), weight: 1 },
  { arbitrary: deepNesting, weight: 1 },
  {
    arbitrary: fc.integer({ min: 1_000, max: 20_000 }).map((n) => Array.from({ length: n }, () => 1)),
    weight: 1,
  },
);

const word = fc.stringMatching(/^[a-z0-9]{1,12}$/);
/** An ordinary address (fc.emailAddress's RFC corners are refused by most validators). */
const plainEmail = fc
  .tuple(word, word, fc.constantFrom('example', 'acme.example', 'globex.example'))
  .map(([user, host, domain]) => `${user}@${host}.${domain}`);

type Build = (node: JsonSchema, depth: number) => fc.Arbitrary<unknown>;

function stringArbitrary(node: JsonSchema): fc.Arbitrary<string> {
  const minLength = node.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(node.maxLength ?? 40, minLength + 40));
  if (node.format === 'email') {
    return plainEmail;
  }
  if (node.format === 'uuid' || node.format === 'guid') {
    return fc.uuid();
  }
  if (node.format === 'uri') {
    // web addresses as an endpoint's URL field wants them, all on a closed loopback port: what the
    // server sends to them (a webhook's test) never leaves this machine
    return fc
      .tuple(fc.constantFrom('http', 'https'), fc.webPath())
      .map(([scheme, rest]) => `${scheme}://127.0.0.1:9${rest.startsWith('/') ? rest : `/${rest}`}`)
      .filter((u) => u.length >= minLength && (node.maxLength === undefined || u.length <= node.maxLength));
  }
  if (node.format === 'date-time') {
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString());
  }
  if (node.pattern) {
    try {
      return fc
        .stringMatching(new RegExp(node.pattern))
        .filter((s) => s.length >= minLength && (node.maxLength === undefined || s.length <= node.maxLength));
    } catch {
      // a pattern fast-check cannot generate from: plain strings within the bounds
    }
  }
  return fc.oneof(
    fc.string({ minLength, maxLength }),
    fc.string({ minLength, maxLength, unit: 'grapheme' }),
    fc.string({ minLength, maxLength, unit: 'binary' }),
  );
}

function numberArbitrary(node: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const lower = node.minimum ?? (node.exclusiveMinimum !== undefined ? node.exclusiveMinimum + 1 : undefined);
  const upper = node.maximum ?? (node.exclusiveMaximum !== undefined ? node.exclusiveMaximum - 1 : undefined);
  const min = Math.max(lower ?? -1_000_000, -Number.MAX_SAFE_INTEGER);
  const max = Math.min(upper ?? 1_000_000, Number.MAX_SAFE_INTEGER);
  if (integer) {
    const lo = Math.ceil(min);
    const hi = Math.max(lo, Math.floor(max));
    // Small values first: ids and counters that exist are small.
    return fc.oneof(fc.integer({ min: lo, max: Math.min(hi, lo + 50) }), fc.integer({ min: lo, max: hi }));
  }
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

/**
 * Values seen elsewhere, by property name (the route fuzzer collects them from the server's own
 * answers): a step's details, a site code, an id that exists. They are offered beside the
 * generated values, so rules the JSON Schema cannot say (a step type's required fields) pass too.
 */
export type Examples = ReadonlyMap<string, readonly unknown[]>;

function typedArbitrary(
  node: JsonSchema,
  type: string,
  depth: number,
  build: Build,
  examples: Examples,
): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return stringArbitrary(node);
    case 'integer':
      return numberArbitrary(node, true);
    case 'number':
      return numberArbitrary(node, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      if (node.prefixItems) {
        return fc.tuple(...node.prefixItems.map((item) => build(item, depth + 1)));
      }
      const minLength = node.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(node.maxItems ?? 4, minLength + 4));
      const item = node.items ? build(node.items, depth + 1) : fc.jsonValue({ maxDepth: 1 });
      return fc.array(item, { minLength, maxLength });
    }
    case 'object': {
      const properties = node.properties ?? {};
      const keys = Object.keys(properties);
      const extra =
        typeof node.additionalProperties === 'object' && keys.length === 0
          ? fc.dictionary(fc.string({ maxLength: 12 }), build(node.additionalProperties, depth + 1), {
              maxKeys: 4,
            })
          : fc.constant({});
      if (keys.length === 0) {
        return extra;
      }
      // What the JSON Schema of the input cannot show: an e-mail field checked after a pipe
      // (z.string().pipe(z.email())) gets e-mail addresses too, and an id taken as text (a device
      // is addressed by id or guid) gets small numbers too, which name records that exist.
      const forKey = (key: string) => {
        const property = properties[key]!;
        const seen = examples.get(key);
        const plain = seen?.length
          ? fc.oneof(fc.constantFrom(...seen), build(property, depth + 1))
          : build(property, depth + 1);
        if (property.type !== 'string' || property.format || property.pattern) {
          return plain;
        }
        if (/email/i.test(key)) {
          return fc.oneof(plainEmail, plain);
        }
        if (/^id$|_id$|Id$/.test(key)) {
          return fc.oneof(fc.integer({ min: 1, max: 60 }).map(String), plain);
        }
        return plain;
      };
      const model = Object.fromEntries(keys.map((key) => [key, forKey(key)]));
      return fc.record(model, { requiredKeys: (node.required ?? []).filter((k) => keys.includes(k)) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function builder(root: JsonSchema, mutate: boolean, examples: Examples): Build {
  const maxDepth = 8;
  const build: Build = (node, depth) => {
    const shaped = shapedArbitrary(node, depth);
    if (!mutate) {
      return shaped;
    }
    const broken =
      node.type === 'object' || node.properties
        ? fc.oneof(
            // required keys dropped, unknown (and prototype) keys added
            fc
              .tuple(
                fc.record(
                  Object.fromEntries(
                    Object.entries(node.properties ?? {}).map(([k, v]) => [k, build(v, depth + 1)]),
                  ),
                  { requiredKeys: [] },
                ),
                fc.dictionary(
                  fc.constantFrom('__proto__', 'constructor', 'extra', 'id', 'tenant_id'),
                  garbage,
                  {
                    maxKeys: 2,
                  },
                ),
              )
              .map(([known, unknown]) => ({ ...unknown, ...known })),
            garbage,
          )
        : garbage;
    return fc.oneof({ arbitrary: shaped, weight: 4 }, { arbitrary: broken, weight: 1 });
  };

  function shapedArbitrary(node: JsonSchema, depth: number): fc.Arbitrary<unknown> {
    if (depth > maxDepth) {
      return fc.constant(null);
    }
    if (node.$ref) {
      const name = node.$ref.replace(/^#\/\$defs\//, '');
      const target = node.$ref === '#' ? root : root.$defs?.[name];
      return target ? build(target, depth + 1) : fc.jsonValue({ maxDepth: 1 });
    }
    if (node.const !== undefined) {
      return fc.constant(node.const);
    }
    if (node.enum) {
      return fc.constantFrom(...node.enum);
    }
    const alternatives = node.anyOf ?? node.oneOf;
    if (alternatives && alternatives.length > 0) {
      return fc.oneof(...alternatives.map((a) => build(a, depth + 1)));
    }
    if (node.allOf && node.allOf.length > 0) {
      return build(node.allOf[0]!, depth + 1);
    }
    const types = Array.isArray(node.type) ? node.type : node.type ? [node.type] : [];
    if (types.length === 0) {
      return node.properties
        ? typedArbitrary(node, 'object', depth, build, examples)
        : fc.jsonValue({ maxDepth: 2 });
    }
    return fc.oneof(...types.map((t) => typedArbitrary(node, t, depth, build, examples)));
  }

  return build;
}

/** Values of the schema's input shape. */
export function validShaped(schema: z.ZodType, examples: Examples = new Map()): fc.Arbitrary<unknown> {
  const root = inputJsonSchema(schema);
  return builder(root, false, examples)(root, 0);
}

/** Values of the schema's shape with garbage at any level, keys missing and unknown keys added. */
export function fuzzed(schema: z.ZodType, examples: Examples = new Map()): fc.Arbitrary<unknown> {
  const root = inputJsonSchema(schema);
  return builder(root, true, examples)(root, 0);
}
