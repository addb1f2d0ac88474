// A typed client for the Outpost API (docs/api.md). Its types are generated from the server's
// OpenAPI document (scripts/generate.ts writes openapi.json and schema.d.ts), so a path, a query
// parameter, a request body or a response field the server does not have is a type error here.
// openapi-fetch does the requests: `client.GET('/api/customer/devices', { params: { query } })`.
import createClient from 'openapi-fetch';
import type { Client, ClientOptions } from 'openapi-fetch';
import type { ApiErrorBody, FieldError } from '@outpost/contract/envelope';
import type { paths } from './schema';

export type { paths } from './schema';
export type OutpostClient = Client<paths>;

export type OutpostClientOptions = {
  /** The portal's address, e.g. `https://outpost.example.com` (paths start with /api/). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>` on every request. */
  token: string;
  /** Another fetch (a proxy agent, a test double); the global fetch by default. */
  fetch?: ClientOptions['fetch'];
};

export function createOutpostClient({ baseUrl, token, fetch }: OutpostClientOptions): OutpostClient {
  return createClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${token}` },
    ...(fetch && { fetch }),
  });
}

/** An answer other than 2xx, with the server's message and code (docs/product/README.md#conventions). */
export class OutpostApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly fields: FieldError[];

  constructor(status: number, body: unknown) {
    const envelope = isErrorBody(body) ? body : null;
    super(envelope?.error ?? `The server answered ${status}`);
    this.name = 'OutpostApiError';
    this.status = status;
    this.code = envelope?.code;
    this.fields = envelope?.fields ?? [];
  }
}

function isErrorBody(body: unknown): body is ApiErrorBody {
  return typeof body === 'object' && body !== null && (body as { success?: unknown }).success === false;
}

/** What every openapi-fetch call resolves to, narrowed to the parts `unwrap` reads. */
type Answer<T> = { data?: { success: true; data: T }; error?: unknown; response: Response };

/**
 * The `data` of a successful answer (the envelope `{success: true, data}` taken off), or an
 * OutpostApiError with the server's message for any other:
 * `const page = await unwrap(client.GET('/api/customer/devices'))`.
 */
export async function unwrap<T>(request: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await request;
  if (!response.ok || data === undefined) {
    throw new OutpostApiError(response.status, error);
  }
  return data.data;
}
