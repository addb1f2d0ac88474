import fp from 'fastify-plugin';
import type { FastifyRequest, FastifySchema } from 'fastify';
import { adminMessages } from '@outpost/contract/messages';
import { HttpError } from '../lib/errors';
import { requireAdmin } from '../lib/context';

// The authorisation backstop (docs/product/administration.md#who-may-do-what). Every /api route declares who may call
// it in `config.access`, and this one hook enforces the declaration before the route's handler
// runs:
//
//   public  anyone (health, config, sign-in)
//   member  a signed-in member of the tenant (the service then applies tenant and site scope)
//   admin   a signed-in tenant_admin (403 ADMIN_ONLY for a regular user); services check again
//   agent   the route authenticates an agent itself (device guid and secret, or an enrolment token)
//   socket  the portal socket, which authenticates from its query string once open (close codes of docs/product/live-updates.md#server-side)
//
// A route that declares nothing (or something else) has made no authorisation decision: every
// request to it fails closed with a 500 ACCESS_NOT_DECLARED and an error in the log, in every
// environment, before its handler runs. The generated authorisation matrix
// (src/authz-matrix.int.test.ts) calls every registered route, so a new route without a
// declaration fails the tests before it ships.

export const ROUTE_ACCESS = ['public', 'member', 'admin', 'agent', 'socket'] as const;
export type RouteAccess = (typeof ROUTE_ACCESS)[number];

export type ApiRoute = {
  method: string;
  url: string;
  access: RouteAccess | undefined;
  /** The route's schema (zod params, querystring, body…): the route fuzzer generates input from it. */
  schema?: FastifySchema;
  /** A websocket route (@fastify/websocket). */
  websocket?: boolean;
};

const isApiUrl = (url: string | undefined) => url === '/api' || Boolean(url?.startsWith('/api/'));
const isRouteAccess = (value: unknown): value is RouteAccess => ROUTE_ACCESS.includes(value as RouteAccess);

/** Which access a request's route declared (undefined: none, or not a known level). */
export function declaredAccess(request: FastifyRequest): RouteAccess | undefined {
  const access: unknown = request.routeOptions.config.access;
  return isRouteAccess(access) ? access : undefined;
}

export type AccessPluginOptions = {
  /**
   * URL prefixes of routes other plugins register, which cannot carry a route config (the
   * OpenAPI document and its UI): their undeclared routes are declared public here, at
   * registration. The access plugin must be registered before those plugins.
   */
  publicPrefixes?: string[];
};

export const accessPlugin = fp(
  (app, opts: AccessPluginOptions, done) => {
    const publicPrefixes = opts.publicPrefixes ?? [];
    const routes: ApiRoute[] = [];
    app.decorate('apiRoutes', routes);

    // Every /api route as registered (HEAD twins of GET routes included), for the matrix test and
    // a warning at start-up about any route that declares nothing.
    app.addHook('onRoute', (route) => {
      if (!isApiUrl(route.url)) {
        return;
      }
      if (route.config?.access === undefined && publicPrefixes.some((p) => route.url.startsWith(p))) {
        route.config = { ...route.config, access: 'public' };
      }
      const access: unknown = route.config?.access;
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        routes.push({
          method,
          url: route.url,
          access: isRouteAccess(access) ? access : undefined,
          schema: route.schema,
          websocket: (route as { websocket?: boolean }).websocket === true,
        });
      }
      if (!isRouteAccess(access)) {
        app.log.warn({ method: route.method, url: route.url }, 'route declares no access level');
      }
    });

    app.addHook('onRequest', async (request) => {
      if (request.is404 || !isApiUrl(request.routeOptions.url)) {
        return;
      }
      const access = declaredAccess(request);
      switch (access) {
        case 'public':
        case 'agent':
        case 'socket':
          return;
        case 'member':
          await app.requireSession(request);
          return;
        case 'admin':
          await app.requireSession(request);
          requireAdmin(request.ctx);
          return;
        case undefined: {
          const method = request.method;
          const url = request.routeOptions.url ?? request.url;
          request.log.error(
            { method, url, access: request.routeOptions.config.access },
            'authorisation backstop: the route made no authorisation decision (config.access)',
          );
          throw new HttpError(500, adminMessages.accessNotDeclared(method, url), 'ACCESS_NOT_DECLARED');
        }
      }
    });
    done();
  },
  // Registered before the auth plugin (so it sees every route); it calls requireSession, which
  // the auth plugin decorates, only when requests arrive.
  { name: 'access' },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /api route registered so far, with its declared access (the authorisation matrix). */
    readonly apiRoutes: readonly ApiRoute[];
  }
  interface FastifyContextConfig {
    /** Who may call the route; required on every /api route (see plugins/access.ts). */
    access?: RouteAccess;
  }
}
