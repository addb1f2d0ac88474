import { describe, expect, it } from 'vitest';
import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DashboardStats, DeviceListResponse } from '@outpost/contract/devices';
import { apiSuccess } from '@outpost/contract/envelope';
import { fastJsonSchema, isPlainSchema, responseSerializerCompiler } from './response-serializer';

const compile = (schema: z.ZodType, check = false) =>
  responseSerializerCompiler({ check })({ schema, method: 'GET', url: '/test', httpStatus: '200' });

const device = {
  id: 7,
  device_guid: '1b7c2f3e-0000-4000-8000-000000000007',
  hostname: 'PC-"quoted"\\ é \u2028 \u0001',
  ip_address: null,
  os_type: 'windows',
  os_version: null,
  architecture: null,
  status: 'online' as const,
  last_seen: '2026-11-23T10:00:00.000Z',
  agent_version: '1.2.3',
  site_id: null,
  site_name: null,
  serial_number: '',
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-02T00:00:00.000Z',
  manufacturer: null,
  model: 'X',
  last_inventory_update: null,
};

describe('response serializer', () => {
  it('writes a plain schema with fast-json-stringify, byte for byte as zod then JSON.stringify', () => {
    const schema = apiSuccess(DeviceListResponse);
    expect(fastJsonSchema(schema)).not.toBeNull();
    const body = {
      success: true as const,
      data: {
        data: [device, { ...device, id: 8, site_id: 3, site_name: 'HQ', hostname: null }],
        pagination: { page: 1, limit: 20, total: 2, totalPages: 1 },
      },
    };
    // keys in another order than the schema's, and one the schema does not have
    const shuffled = {
      data: { pagination: body.data.pagination, data: body.data.data, extra: 1 },
      success: true,
    };
    const expected = JSON.stringify(z.encode(schema, body));
    expect(compile(schema)(body)).toBe(expected);
    expect(compile(schema)(shuffled)).toBe(expected);
    expect(compile(schema, true)(body)).toBe(expected);
  });

  it('leaves optional fields absent, keeps nulls, records and unknown values as they are', () => {
    const schema = z.object({
      a: z.string().optional(),
      b: z.number().int().nullable(),
      c: z.record(z.string(), z.unknown()),
      d: z.array(z.object({ e: z.boolean() }).nullable()),
      f: z.enum(['x', 'y']),
      g: z.iso.datetime().nullable(),
    });
    expect(fastJsonSchema(schema)).not.toBeNull();
    const value = {
      b: null,
      c: { z: [1, 'two', null], a: { n: 1 } },
      d: [null, { e: false }],
      f: 'y',
      g: null,
    };
    expect(compile(schema, true)(value)).toBe(JSON.stringify(value));
    expect(compile(schema, true)({ ...value, a: 'here', b: 2 })).toBe(
      JSON.stringify({ a: 'here', b: 2, c: value.c, d: value.d, f: 'y', g: null }),
    );
  });

  it('keeps the zod path for a schema that changes values on the way out', () => {
    for (const schema of [
      z.object({ a: z.string().transform((s) => s.length) }),
      z.object({ a: z.string().default('x') }),
      z.object({ a: z.date() }),
      z.object({ a: z.union([z.object({ b: z.string() }), z.number()]) }),
    ]) {
      expect(fastJsonSchema(schema)).toBeNull();
    }
    expect(isPlainSchema(apiSuccess(DashboardStats))).toBe(true);
    // a union of plain values is one JSON type list, which fast-json-stringify tells apart
    const either = compile(z.object({ a: z.union([z.string(), z.number()]) }), true);
    expect([either({ a: '5' }), either({ a: 5 })]).toEqual(['{"a":"5"}', '{"a":5}']);
    const schema = z.object({ a: z.codec(z.string(), z.number(), { decode: Number, encode: String }) });
    expect(compile(schema)({ a: 5 })).toBe('{"a":"5"}');
  });

  it('with check, a response that does not match its schema is the zod path’s error', () => {
    const serialize = compile(z.object({ a: z.number().int(), b: z.enum(['x']) }), true);
    expect(serialize({ a: 1, b: 'x' })).toBe('{"a":1,"b":"x"}');
    for (const wrong of [{ a: '1', b: 'x' }, { a: 1, b: 'nope' }, { b: 'x' }]) {
      let error: unknown;
      try {
        serialize(wrong);
      } catch (err) {
        error = err;
      }
      expect(isResponseSerializationError(error) || error instanceof Error).toBe(true);
    }
  });
});
