import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { adminMessages, messages } from '@outpost/contract/messages';
import { startTestServer } from '../test/harness';
import type { TestServer } from '../test/harness';
import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import {
  alertRoutes,
  alerts,
  auditLogs,
  customFields,
  monitoringPolicies,
  deploymentJobs,
  deviceGroups,
  deploymentPackages,
  deviceDeployments,
  devices,
  enrollmentTokens,
  fileTransfers,
  files,
  maintenanceWindows,
  notificationChannels,
  notificationDeliveries,
  packageSteps,
  policies,
  tags,
  users,
  webhookSubscriptions,
  terminalSessions,
} from './db/schema/index';
import { hashSecret } from './modules/agents/agent-secrets';
import { DEMO } from './modules/demo/demo.seed';
import { addMember } from './modules/tenants/tenants.service';
import type { ApiRoute } from './plugins/access';
import { API_TOKEN_SCOPES, apiTokenMessages } from '@outpost/contract/api-tokens';
import type { ApiTokenScope, CreatedApiToken } from '@outpost/contract/api-tokens';
import { requiredScope } from './modules/api-tokens/api-token-areas';

// The authorisation matrix (docs/product/administration.md#who-may-do-what), generated from the routes the server
// registered (app.apiRoutes, collected by plugins/access.ts): a route added later is in the
// matrix without anyone listing it. For each route and caller:
//
//   anonymous                    member/admin routes → 401
//   a regular user               admin routes → 403 'Administrators only'; member routes never 401/403
//   another tenant's admin       a route addressing one of Acme's records by id → 404
//   a user limited to one site   a record of another site → 404; lists leave it out
//
// Routes addressing records need an id of the right kind: `idsFor` names them by path. A new
// route with a path parameter it does not know fails the matrix until it is added there.

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };
type Route = ApiRoute & { path: string };

describe('authorisation matrix over every registered /api route', () => {
  let server: TestServer;
  let routes: Route[];
  let admin: string;
  let tech: string;
  let globexAdmin: string, limited: string;
  /** Acme records, by kind; the device and its deployment are in the site `limited` cannot see */
  const acme = {} as Record<
    | 'device'
    | 'package'
    | 'step'
    | 'file'
    | 'job'
    | 'deviceDeployment'
    | 'token'
    | 'user'
    | 'site'
    | 'ownSite'
    | 'field'
    | 'policy'
    | 'tag'
    | 'group'
    | 'window'
    | 'channel'
    | 'delivery'
    | 'alert'
    | 'route'
    | 'monitoringPolicy'
    | 'script'
    | 'scriptRun'
    | 'apiToken'
    | 'webhook'
    | 'webhookDelivery',
    number
  >;
  /** one API token per scope, holding that scope only, and one holding every scope (docs/product/administration.md#api-tokens) */
  const scopeTokens = new Map<ApiTokenScope, string>();
  let allScopesToken = '';
  let stepBody: Record<string, unknown>;
  /** a terminal session on Acme's HQ device (its id is a uuid) */
  const terminalSessionId = crypto.randomUUID();
  /** a file transfer (uuid) of the HQ device, started by Acme's administrator */
  let transferId = '';

  /** The concrete URL for a route pattern, with Acme's ids; null when a parameter is unknown. */
  function idsFor(pattern: string): string | null {
    const values: Record<string, string> = {
      serviceName: 'Spooler',
      action: 'stop',
      kind: 'software',
      stepId: String(acme.step),
      platform: 'linux-x64',
      // a webhook's delivery for the webhook routes, a channel's for the channels'
      deliveryId: String(
        pattern.startsWith('/api/customer/webhooks/') ? acme.webhookDelivery : acme.delivery,
      ),
      version: '1',
      commandId: '00000000-0000-4000-8000-000000000001',
    };
    const idByPrefix: [string, number | string][] = [
      ['/api/customer/terminal-sessions/', terminalSessionId],
      ['/api/customer/file-transfers/', transferId],
      ['/api/agent/transfers/', transferId],
      ['/api/customer/deployments/device-deployment/', acme.deviceDeployment],
      ['/api/customer/deployments/', acme.job],
      ['/api/customer/deployment-packages/', acme.package],
      ['/api/customer/device-activity/device/', acme.device],
      ['/api/customer/devices/', acme.device],
      ['/api/customer/files/', acme.file],
      ['/api/customer/agents/enrollment-tokens/', acme.token],
      ['/api/customer/users/', acme.user],
      ['/api/customer/sites/', acme.site],
      ['/api/customer/custom-fields/', acme.field],
      ['/api/customer/tags/', acme.tag],
      ['/api/customer/groups/', acme.group],
      ['/api/customer/maintenance-windows/', acme.window],
      ['/api/customer/notification-channels/', acme.channel],
      ['/api/customer/alerts/', acme.alert],
      ['/api/customer/alert-routes/', acme.route],
      ['/api/customer/monitoring-policies/', acme.monitoringPolicy],
      ['/api/agent/files/', acme.file],
      ['/api/customer/policies/', acme.policy],
      ['/api/customer/scripts/', acme.script],
      ['/api/customer/script-runs/', acme.scriptRun],
      ['/api/customer/api-tokens/', acme.apiToken],
      ['/api/customer/webhooks/', acme.webhook],
    ];
    const id = idByPrefix.find(([prefix]) => pattern.startsWith(prefix))?.[1];
    let unknown = false;
    const url = pattern.replace(/:(\w+)/g, (_m, name: string) => {
      const value = name === 'id' ? (id === undefined ? undefined : String(id)) : values[name];
      if (value === undefined) {
        unknown = true;
        return '';
      }
      return value;
    });
    return unknown ? null : url;
  }

  /** A maintenance window of the HQ site (the site `limited` cannot see). */
  const windowBody = () => ({
    name: 'Matrix window',
    site_id: acme.site,
    days: [1],
    start_time: '22:00',
    duration_minutes: 60,
  });

  /** A webhook channel to a closed loopback port (its deliveries just fail). */
  const channelBody = (name: string) => ({
    kind: 'webhook',
    name,
    config: { url: 'http://127.0.0.1:9/matrix' },
  });

  /** An event webhook to a closed loopback port (docs/product/webhooks.md). */
  const webhookBody = (name: string) => ({
    name,
    url: 'http://127.0.0.1:9/matrix-events',
    events: ['device.deleted', 'user.added'],
  });

  /** A routing rule of every critical alert to the matrix channel. */
  const routeBody = (name: string) => ({ name, severities: ['critical'], channel_ids: [acme.channel] });

  /** A script of the library (docs/product/scripts.md). */
  const scriptBody = (name: string) => ({ name, language: 'powershell', os: 'windows', body: 'Get-Date' });

  /** A body that passes validation, so the answer is about authorisation, not input. */
  function bodyFor(method: string, pattern: string): unknown {
    const key = `${method} ${pattern}`;
    const bodies: Record<string, unknown> = {
      'PUT /api/customer/deployment-packages/:id': { name: 'Renamed' },
      'POST /api/customer/deployment-packages/:id/duplicate': {},
      'POST /api/customer/deployment-packages/:id/steps': stepBody,
      'PUT /api/customer/deployment-packages/:id/steps/:stepId': stepBody,
      'PUT /api/customer/deployment-packages/:id/steps/reorder': {
        stepOrders: [{ id: acme.step, step_order: 1 }],
      },
      'PUT /api/customer/users/:id': { name: 'Renamed' },
      'PUT /api/customer/sites/:id': { site_name: 'Renamed' },
      'DELETE /api/customer/devices': { device_ids: [acme.device] },
      'POST /api/customer/agents/update': { device_ids: [acme.device] },
      'DELETE /api/customer/users': { user_ids: [acme.user] },
      'DELETE /api/customer/sites': { site_ids: [acme.site] },
      'POST /api/customer/deployments/:id/waiting-devices/end': { action: 'cancel' },
      'POST /api/customer/deployments/:id/rollout/skip-gate': { reason: 'Matrix' },
      'PUT /api/customer/custom-fields/:id': { name: 'Renamed' },
      'PUT /api/customer/custom-fields/reorder': { field_ids: [acme.field] },
      'PUT /api/customer/devices/:id/fields': { matrix_field: 'x' },
      'POST /api/customer/devices/fields': { device_ids: [acme.device], values: { matrix_field: 'x' } },
      'POST /api/customer/devices/tags': { device_ids: [acme.device], add: [acme.tag] },
      // runs after the POST above put the tag on: taking it off is a change
      'PUT /api/customer/devices/:id/tags': { tags: [] },
      'PUT /api/customer/tags/:id': { color: 'red' },
      'PUT /api/customer/groups/:id': { name: 'Renamed' },
      'POST /api/customer/groups/:id/members': { device_ids: [acme.device] },
      'DELETE /api/customer/groups/:id/members': { device_ids: [acme.device] },
      'PUT /api/customer/maintenance-windows/:id': windowBody(),
      'PUT /api/customer/notification-channels/:id': channelBody('Matrix hook'),
      'PUT /api/customer/webhooks/:id': webhookBody('Matrix webhook'),
      'PUT /api/customer/devices/:id/maintenance': { minutes: 60, reason: 'Matrix' },
      'PUT /api/customer/sites/:id/maintenance': { minutes: 60 },
      'POST /api/customer/alerts/:id/acknowledge': { note: 'Matrix' },
      'POST /api/customer/alerts/:id/resolve': { note: 'Matrix' },
      'POST /api/customer/alerts/acknowledge': { ids: [acme.alert] },
      'PUT /api/customer/alert-routes/:id': routeBody('Matrix route'),
      'PUT /api/customer/monitoring-policies/:id': { name: 'Matrix checks renamed' },
      'PUT /api/customer/scripts/:id': scriptBody('Matrix script'),
      'POST /api/customer/scripts/:id/runs': { device_ids: [acme.device] },
      'POST /api/customer/scripts/import': {
        format: 'outpost-scripts/1',
        scripts: [scriptBody('Matrix import')],
      },
      'POST /api/customer/devices/:id/files/download': { path: '/etc/hosts' },
    };
    return bodies[key] ?? (method === 'GET' || method === 'DELETE' ? undefined : {});
  }

  const call = (method: string, path: string, token?: string, body?: unknown) =>
    server.request<Envelope<unknown>>(method, path, { token, body });

  beforeAll(async () => {
    server = await startTestServer();
    const demo = (await server.seedDemo())!;
    const db = server.database.db;
    const [hq, london] = demo.siteIds as [number, number];
    admin = (await server.devSignIn(DEMO.adminEmail)).token;
    tech = (await server.devSignIn(DEMO.techEmail)).token;
    globexAdmin = (await server.devSignIn('admin@globex.example')).token;
    await addMember(db, { tenantId: demo.acmeTenantId, email: 'limited@acme.example', siteIds: [london] });
    limited = (await server.devSignIn('limited@acme.example')).token;

    const [device] = await db
      .insert(devices)
      .values({
        tenantId: demo.acmeTenantId,
        siteId: hq,
        hostname: 'hq-matrix',
        deviceGuid: crypto.randomUUID(),
        secretHash: hashSecret('matrix-secret'),
        status: 'offline',
        osType: 'windows',
      })
      .returning({ id: devices.id });
    const [pkg] = await db
      .select()
      .from(deploymentPackages)
      .where(eq(deploymentPackages.tenantId, demo.acmeTenantId))
      .orderBy(asc(deploymentPackages.id))
      .limit(1);
    const [step] = await db
      .select()
      .from(packageSteps)
      .where(and(eq(packageSteps.packageId, pkg!.id)))
      .orderBy(asc(packageSteps.stepOrder))
      .limit(1);
    const [file] = await db.select({ id: files.id }).from(files).where(eq(files.tenantId, demo.acmeTenantId));
    const [job] = await db
      .insert(deploymentJobs)
      .values({
        tenantId: demo.acmeTenantId,
        packageId: pkg!.id,
        packageName: pkg!.name,
        name: 'Matrix job',
        steps: [],
        totalDevices: 1,
      })
      .returning({ id: deploymentJobs.id });
    const [dd] = await db
      .insert(deviceDeployments)
      .values({
        jobId: job!.id,
        tenantId: demo.acmeTenantId,
        deviceId: device!.id,
        siteId: hq,
        hostname: 'hq-matrix',
      })
      .returning({ id: deviceDeployments.id });
    // a script run on the HQ device (docs/product/scripts.md#runs)
    const [scriptJob] = await db
      .insert(deploymentJobs)
      .values({
        tenantId: demo.acmeTenantId,
        kind: 'script',
        packageName: 'Matrix script',
        name: 'Matrix script (v1)',
        steps: [],
        totalDevices: 1,
        scriptRun: {
          script_id: 0,
          script_name: 'Matrix script',
          version: 1,
          language: 'bash',
          body: 'echo matrix',
          params: {},
          sealed_secrets: {},
          timeout_seconds: 60,
          offline: 'wait',
        },
      })
      .returning({ id: deploymentJobs.id });
    await db.insert(deviceDeployments).values({
      jobId: scriptJob!.id,
      tenantId: demo.acmeTenantId,
      deviceId: device!.id,
      siteId: hq,
      hostname: 'hq-matrix',
    });
    acme.scriptRun = scriptJob!.id;
    const [token] = await db
      .insert(enrollmentTokens)
      .values({
        tenantId: demo.acmeTenantId,
        siteId: hq,
        tokenHash: hashSecret('matrix-token'),
        tokenPrefix: 'matrix',
      })
      .returning({ id: enrollmentTokens.id });
    const [field] = await db
      .insert(customFields)
      .values({ tenantId: demo.acmeTenantId, key: 'matrix_field', name: 'Matrix field', fieldType: 'text' })
      .returning({ id: customFields.id });
    // an automation policy on the site `limited` cannot see (docs/product/device-sets.md#automation-policies)
    const [policy] = await db
      .insert(policies)
      .values({
        tenantId: demo.acmeTenantId,
        name: 'Matrix policy',
        targetType: 'site',
        siteId: hq,
        packageId: pkg!.id,
        trigger: 'join',
        activeSince: new Date(),
      })
      .returning({ id: policies.id });
    const [tag] = await db
      .insert(tags)
      .values({ tenantId: demo.acmeTenantId, name: 'Matrix tag', color: 'teal' })
      .returning({ id: tags.id });
    const [techRow] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.tenantId, demo.acmeTenantId), eq(users.email, DEMO.techEmail)));
    // a static group owned by HQ (the site `limited` cannot see), holding the HQ device
    const [group] = await db
      .insert(deviceGroups)
      .values({ tenantId: demo.acmeTenantId, siteId: hq, name: 'Matrix group', kind: 'static' })
      .returning({ id: deviceGroups.id });
    // a maintenance window of HQ (docs/product/rollouts.md#maintenance-windows)
    const [mw] = await db
      .insert(maintenanceWindows)
      .values({
        tenantId: demo.acmeTenantId,
        siteId: hq,
        name: 'Matrix window',
        days: [1],
        startMinute: 60,
        durationMinutes: 60,
      })
      .returning({ id: maintenanceWindows.id });
    // a notification channel and one delivery of it (docs/product/monitoring.md#notification-channels)
    const [channel] = await db
      .insert(notificationChannels)
      .values({
        tenantId: demo.acmeTenantId,
        name: 'Matrix hook',
        kind: 'webhook',
        config: { url: 'http://127.0.0.1:9/matrix' },
      })
      .returning({ id: notificationChannels.id });
    const [delivery] = await db
      .insert(notificationDeliveries)
      .values({
        tenantId: demo.acmeTenantId,
        channelId: channel!.id,
        event: 'test',
        dedupeKey: 'matrix',
        message: { subject: 'Matrix', text: 'Matrix' },
        status: 'failed',
      })
      .returning({ id: notificationDeliveries.id });
    // an alert about the HQ device, a routing rule and a monitoring policy of HQ
    // (docs/product/monitoring.md#alerts, #routing-rules, #monitoring-policies)
    const [alert] = await db
      .insert(alerts)
      .values({
        tenantId: demo.acmeTenantId,
        condition: 'agent_crash',
        conditionKey: `agent_crash:device:${device!.id}`,
        title: 'Matrix alert',
        severity: 'warning',
        deviceId: device!.id,
        siteId: hq,
      })
      .returning({ id: alerts.id });
    const [route] = await db
      .insert(alertRoutes)
      .values({
        tenantId: demo.acmeTenantId,
        name: 'Matrix route',
        severities: ['critical'],
        conditions: [],
        targetType: 'tenant',
      })
      .returning({ id: alertRoutes.id });
    await db.insert(terminalSessions).values({
      id: terminalSessionId,
      tenantId: demo.acmeTenantId,
      deviceId: device!.id,
      siteId: hq,
      shell: 'default',
    });
    const [monitoring] = await db
      .insert(monitoringPolicies)
      .values({ tenantId: demo.acmeTenantId, name: 'Matrix checks', targetType: 'site', siteId: hq })
      .returning({ id: monitoringPolicies.id });
    // file transfer (docs/product/remote-access.md#file-transfer): both roles may use it here, so
    // a regular user's answers are about the device and the transfer, not the role setting
    const opened = await call('PUT', '/api/customer/settings/remote-access', admin, {
      allowed_roles: ['tenant_admin', 'user'],
    });
    expect(opened.status).toBe(200);
    const [adminRow] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.tenantId, demo.acmeTenantId), eq(users.email, DEMO.adminEmail)));
    transferId = crypto.randomUUID();
    await db.insert(fileTransfers).values({
      id: transferId,
      tenantId: demo.acmeTenantId,
      deviceId: device!.id,
      siteId: hq,
      userId: adminRow!.id,
      direction: 'download',
      path: '/etc/hosts',
      maxBytes: 1024 * 1024,
      status: 'pending',
    });
    // an event webhook and one delivery of it (docs/product/webhooks.md)
    const [webhook] = await db
      .insert(webhookSubscriptions)
      .values({
        tenantId: demo.acmeTenantId,
        name: 'Matrix webhook',
        url: 'http://127.0.0.1:9/matrix-events',
        events: ['device.deleted'],
        secret: 'not-a-sealed-secret',
      })
      .returning({ id: webhookSubscriptions.id });
    const [webhookDelivery] = await db
      .insert(notificationDeliveries)
      .values({
        tenantId: demo.acmeTenantId,
        subscriptionId: webhook!.id,
        event: 'device.deleted',
        dedupeKey: 'matrix',
        message: { data: {} },
        status: 'failed',
      })
      .returning({ id: notificationDeliveries.id });
    Object.assign(acme, {
      webhook: webhook!.id,
      webhookDelivery: webhookDelivery!.id,
      alert: alert!.id,
      route: route!.id,
      monitoringPolicy: monitoring!.id,
      channel: channel!.id,
      delivery: delivery!.id,
      device: device!.id,
      package: pkg!.id,
      step: step!.id,
      file: file!.id,
      job: job!.id,
      deviceDeployment: dd!.id,
      token: token!.id,
      user: techRow!.id,
      site: hq,
      ownSite: london,
      field: field!.id,
      policy: policy!.id,
      tag: tag!.id,
      group: group!.id,
      window: mw!.id,
    });
    const script = await call('POST', '/api/customer/scripts', admin, scriptBody('Matrix script'));
    acme.script = (script.body.data as { id: number }).id;
    stepBody = {
      step_name: step!.stepName,
      step_type: step!.stepType,
      step_details: JSON.stringify(step!.stepDetails),
      fail_deployment_on_error: step!.failDeploymentOnError,
      timeout_seconds: step!.timeoutSeconds,
      retry_count: step!.retryCount,
    };

    const newToken = async (name: string, scopes: readonly ApiTokenScope[]) => {
      const res = await call('POST', '/api/customer/api-tokens', admin, { name, scopes });
      return res.body.data as CreatedApiToken;
    };
    for (const scope of API_TOKEN_SCOPES) {
      scopeTokens.set(scope, (await newToken(`Matrix ${scope}`, [scope])).token);
    }
    allScopesToken = (await newToken('Matrix all scopes', API_TOKEN_SCOPES)).token;
    acme.apiToken = (await newToken('Matrix revocable', ['audit:read'])).id;

    routes = server.app.apiRoutes.filter((r) => r.method !== 'HEAD').map((r) => ({ ...r, path: r.url }));
  });
  afterAll(async () => {
    await server?.close();
  });

  const routesWith = (...levels: ApiRoute['access'][]) => routes.filter((r) => levels.includes(r.access));
  const label = (r: Route) => `${r.method} ${r.url} (${r.access})`;

  it('reads the registered routes, and every one declares a known access level', () => {
    expect(routes.length).toBeGreaterThan(50);
    expect(routes.filter((r) => r.access === undefined).map(label)).toEqual([]);
    // The administrators' areas (docs/product/administration.md#who-may-do-what) are declared admin.
    const adminRoutes = routesWith('admin').map((r) => `${r.method} ${r.url}`);
    for (const expected of [
      'GET /api/customer/users',
      'POST /api/customer/users',
      'PUT /api/customer/users/:id',
      'DELETE /api/customer/users/:id',
      'DELETE /api/customer/users',
      'POST /api/customer/sites',
      'PUT /api/customer/sites/:id',
      'DELETE /api/customer/sites/:id',
      'DELETE /api/customer/sites',
      'GET /api/customer/audit',
      'GET /api/customer/audit/stats',
      'GET /api/customer/audit/actions',
      'DELETE /api/customer/devices/:id',
      'DELETE /api/customer/devices',
      'POST /api/customer/devices/cleanup',
      'POST /api/customer/devices/cleanup/preview',
      'GET /api/customer/agents/enrollment-tokens',
      'POST /api/customer/agents/enrollment-tokens',
      'DELETE /api/customer/agents/enrollment-tokens/:id',
      'POST /api/customer/custom-fields',
      'PUT /api/customer/custom-fields/:id',
      'PUT /api/customer/custom-fields/reorder',
      'DELETE /api/customer/custom-fields/:id',
      'PUT /api/customer/tags/:id',
      'DELETE /api/customer/tags/:id',
      'GET /api/customer/api-tokens',
      'POST /api/customer/api-tokens',
      'DELETE /api/customer/api-tokens/:id',
    ]) {
      expect(adminRoutes).toContain(expected);
    }
    // Public routes are few and named (the OpenAPI document and its UI aside).
    expect(routes.filter((r) => r.url.startsWith('/api/docs')).every((r) => r.access === 'public')).toBe(
      true,
    );
    expect(
      routesWith('public')
        .filter((r) => !r.url.startsWith('/api/docs'))
        .map((r) => `${r.method} ${r.url}`)
        .sort(),
    ).toEqual([
      // the install scripts and the agent executables: a device has no credentials before it
      // is enrolled (the executables carry no secret)
      'GET /api/agent/install.ps1',
      'GET /api/agent/install.sh',
      'GET /api/agent/releases',
      'GET /api/agent/releases/:platform',
      'GET /api/config',
      // single sign-on: the provider sends the browser back here (docs/product/sign-in.md#single-sign-on)
      'GET /api/customer/auth/oidc/callback',
      'GET /api/health',
      'POST /api/customer/auth/dev',
      'POST /api/customer/auth/google',
      'POST /api/customer/auth/link',
      'POST /api/customer/auth/oidc/start',
      // the embedded demo's webhook receiver, for its own notification channel (demo only)
      'POST /api/demo/webhook',
    ]);
  });

  it('serves the API documentation to anyone', async () => {
    expect((await call('GET', '/api/docs/json')).status).toBe(200);
  });

  it('every route with a path parameter has an id in the matrix', () => {
    expect(routes.filter((r) => idsFor(r.url) === null).map(label)).toEqual([]);
  });

  it('anonymous callers get 401 on every member and admin route', async () => {
    for (const r of routesWith('member', 'admin')) {
      const res = await call(r.method, idsFor(r.url)!, undefined, bodyFor(r.method, r.url));
      expect(res.status, label(r)).toBe(401);
      expect(res.body.code, label(r)).toBe('NO_TOKEN');
      const forged = await call(r.method, idsFor(r.url)!, 'not-a-token', bodyFor(r.method, r.url));
      expect(forged.status, label(r)).toBe(401);
      const forgedApiToken = await call(r.method, idsFor(r.url)!, 'opt_api_forged', bodyFor(r.method, r.url));
      expect(forgedApiToken.status, label(r)).toBe(401);
    }
  });

  it('agent routes refuse callers without agent credentials', async () => {
    for (const r of routesWith('agent')) {
      if (r.url === '/api/agent/ws') {
        continue; // a socket route: live/agent-socket.int.test.ts covers its upgrade refusals
      }
      const res = await call(r.method, idsFor(r.url)!, admin, bodyFor(r.method, r.url));
      expect([400, 401], label(r)).toContain(res.status);
    }
  });

  it('a regular user gets 403 on every admin route, and is never refused on a member route', async () => {
    for (const r of routesWith('admin')) {
      const res = await call(r.method, idsFor(r.url)!, tech, bodyFor(r.method, r.url));
      expect(res.status, label(r)).toBe(403);
      expect(res.body.error, label(r)).toBe(messages.adminOnly);
    }
    for (const r of routesWith('member')) {
      if (r.method !== 'GET') {
        continue; // reading is enough to show access; changes are exercised by each area's tests
      }
      const res = await call(r.method, idsFor(r.url)!, tech);
      expect([401, 403], label(r)).not.toContain(res.status);
    }
  });

  it("another tenant's administrator gets 404 for every route that addresses an Acme record", async () => {
    const addressing = routesWith('member', 'admin').filter(
      (r) =>
        r.url.includes(':id') ||
        [
          'DELETE /api/customer/devices',
          'DELETE /api/customer/users',
          'DELETE /api/customer/sites',
          'POST /api/customer/devices/fields',
          'POST /api/customer/devices/tags',
        ].includes(`${r.method} ${r.url}`),
    );
    expect(addressing.length).toBeGreaterThan(20);
    for (const r of addressing) {
      const res = await call(r.method, idsFor(r.url)!, globexAdmin, bodyFor(r.method, r.url));
      expect(res.status, `${label(r)}: ${JSON.stringify(res.body)}`).toBe(404);
      // the route's own answer, not "no such route"
      expect(res.body.error, label(r)).not.toBe(messages.routeNotFound(r.method, idsFor(r.url)!));
    }
  });

  it("a user limited to one site gets 404 for another site's device, deployment and site records", async () => {
    const siteOwned = [
      '/api/customer/devices/:id',
      '/api/customer/deployments/',
      '/api/customer/sites/:id',
      '/api/customer/policies/:id',
      '/api/customer/groups/:id',
      '/api/customer/maintenance-windows/:id',
      '/api/customer/alerts/:id',
      '/api/customer/monitoring-policies/:id',
      '/api/customer/script-runs/',
      '/api/customer/terminal-sessions/:id',
      '/api/customer/file-transfers/:id',
    ];
    const addressing = routesWith('member').filter(
      (r) => r.url.includes(':id') && siteOwned.some((prefix) => r.url.startsWith(prefix)),
    );
    expect(addressing.length).toBeGreaterThan(8);
    for (const r of addressing) {
      const res = await call(r.method, idsFor(r.url)!, limited, bodyFor(r.method, r.url));
      expect(res.status, `${label(r)}: ${JSON.stringify(res.body)}`).toBe(404);
      // the route's own answer, not "no such route"
      expect(res.body.error, label(r)).not.toBe(messages.routeNotFound(r.method, idsFor(r.url)!));
    }
  });

  it("lists leave out another site's records for a site-limited user", async () => {
    const devicesList = await call('GET', '/api/customer/devices?limit=100', limited);
    expect(JSON.stringify(devicesList.body.data)).not.toContain('hq-matrix');
    const adminDevices = await call('GET', '/api/customer/devices?limit=100', admin);
    expect(JSON.stringify(adminDevices.body.data)).toContain('hq-matrix');
    const jobs = await call('GET', '/api/customer/deployments?limit=100', limited);
    expect(JSON.stringify(jobs.body.data)).not.toContain('Matrix job');
    const runs = await call('GET', '/api/customer/script-runs', limited);
    expect(JSON.stringify(runs.body.data)).not.toContain('Matrix script');
    expect(JSON.stringify((await call('GET', '/api/customer/script-runs', admin)).body.data)).toContain(
      'Matrix script',
    );
    const policyList = await call('GET', '/api/customer/policies', limited);
    expect(JSON.stringify(policyList.body.data)).not.toContain('Matrix policy');
    const options = (await call('GET', '/api/customer/devices/sites/list', limited)).body.data as {
      id: number;
    }[];
    expect(options.map((s) => s.id)).toEqual([acme.ownSite]);
    const siteList = (await call('GET', '/api/customer/sites', limited)).body.data as {
      data: { id: number }[];
    };
    expect(siteList.data.map((s) => s.id)).toEqual([acme.ownSite]);
    const groupList = (await call('GET', '/api/customer/groups?limit=200', limited)).body.data as {
      data: { id: number }[];
    };
    expect(groupList.data.map((g) => g.id)).not.toContain(acme.group);
    const windowList = (await call('GET', '/api/customer/maintenance-windows', limited)).body.data as {
      id: number;
    }[];
    expect(windowList.map((w) => w.id)).not.toContain(acme.window);
    const dashboard = (await call('GET', '/api/customer/devices/stats/dashboard', limited)).body.data;
    expect(JSON.stringify(dashboard)).not.toContain('hq-matrix');
  });

  // API tokens (docs/product/administration.md#api-tokens; the map of routes to areas:
  // modules/api-tokens/api-token-areas.ts). Routes no token may call are named here, so a route
  // that lands among them by accident (or a new one of no area) shows up.
  it('maps every member and admin route to an area, or refuses it to tokens', () => {
    const refused = routesWith('member', 'admin')
      .filter((r) => requiredScope(r.method, r.url) === null)
      .map((r) => `${r.method} ${r.url}`)
      .sort();
    expect(refused).toEqual(
      [
        'DELETE /api/customer/api-tokens/:id',
        'GET /api/customer/api-tokens',
        'POST /api/customer/api-tokens',
        'GET /api/customer/auth/tenants',
        'GET /api/customer/auth/profile',
        'POST /api/customer/auth/logout',
        'POST /api/customer/auth/switch-tenant',
        'PUT /api/customer/auth/profile',
        'POST /api/customer/devices/:id/terminal',
        'GET /api/customer/terminal-sessions',
        'GET /api/customer/terminal-sessions/:id/recording',
        'GET /api/customer/devices/:id/files',
        'POST /api/customer/devices/:id/files/download',
        'POST /api/customer/devices/:id/files/upload',
        'GET /api/customer/file-transfers/:id',
        'POST /api/customer/file-transfers/:id/cancel',
        'GET /api/customer/file-transfers/:id/content',
        'GET /api/customer/settings/remote-access',
        'PUT /api/customer/settings/remote-access',
        'GET /api/customer/webhooks',
        'POST /api/customer/webhooks',
        'GET /api/customer/webhooks/:id',
        'PUT /api/customer/webhooks/:id',
        'DELETE /api/customer/webhooks/:id',
        'POST /api/customer/webhooks/:id/test',
        'GET /api/customer/webhooks/:id/deliveries',
        'POST /api/customer/webhooks/:id/deliveries/:deliveryId/redeliver',
        'GET /api/customer/sso-provider',
        'PUT /api/customer/sso-provider',
        'DELETE /api/customer/sso-provider',
      ]
        .filter((key) => routes.some((r) => `${r.method} ${r.url}` === key))
        .sort(),
    );
    expect(refused.length).toBeGreaterThan(10);
  });

  it('a token with one scope is let through exactly where that scope matches the route, and refused (403) elsewhere', async () => {
    // A change is sent with a body that cannot be parsed: a token let through gets 400 from the
    // parser, after the access hook, so nothing changes; a token refused gets 403 before it.
    const notJson = '{"matrix": ';
    let allowed = 0;
    for (const r of routesWith('member', 'admin')) {
      const needed = requiredScope(r.method, r.url);
      const isRead = r.method === 'GET';
      const answers = await Promise.all(
        [...scopeTokens].map(async ([scope, token]) => ({
          scope,
          res: await server.request<Envelope<unknown>>(r.method, idsFor(r.url)!, {
            token,
            ...(!isRead && { body: notJson }),
          }),
        })),
      );
      for (const { scope, res } of answers) {
        const what = `${label(r)} with ${scope}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
        if (needed === null) {
          expect(res.status, what).toBe(403);
          expect(res.body.code, what).toBe('TOKEN_ROUTE_REFUSED');
          expect(res.body.error, what).toBe(apiTokenMessages.routeRefused);
        } else if (needed === scope) {
          allowed += 1;
          expect([401, 403, 429], what).not.toContain(res.status);
          if (!isRead) {
            expect(res.status, what).toBe(400);
          }
        } else {
          expect(res.status, what).toBe(403);
          expect(res.body.code, what).toBe('TOKEN_SCOPE_MISSING');
          expect(res.body.error, what).toBe(apiTokenMessages.scopeMissing(needed));
        }
      }
    }
    expect(allowed).toBeGreaterThan(100);
  }, 300_000);

  it('routes refused to tokens are refused even to a token holding every scope', async () => {
    const refused = routesWith('member', 'admin').filter((r) => requiredScope(r.method, r.url) === null);
    for (const r of refused) {
      const res = await call(r.method, idsFor(r.url)!, allScopesToken, r.method === 'GET' ? undefined : {});
      expect(res.status, label(r)).toBe(403);
      expect(res.body.code, label(r)).toBe('TOKEN_ROUTE_REFUSED');
    }
  });

  // Runs last: it changes Acme's records. Every successful call of a changing route must leave
  // an audit entry (docs/product/administration.md#who-may-do-what); the routes that succeed here are listed, so the check
  // cannot pass by refusing everything.
  it('every change a route makes writes an audit entry', async () => {
    const order = ['POST', 'PUT', 'PATCH', 'DELETE'];
    // Signing out and switching organisation end the caller's session (SECURITY.md R2-1): last,
    // sign-out first (the switch then finds the session ended).
    const endsSession = (url: string) =>
      url.endsWith('/auth/logout') ? 1 : url.endsWith('/auth/switch-tenant') ? 2 : 0;
    const changing = routesWith('member', 'admin')
      .filter((r) => r.method !== 'GET')
      .sort(
        (a, b) =>
          endsSession(a.url) - endsSession(b.url) || order.indexOf(a.method) - order.indexOf(b.method),
      );
    const creates: Record<string, unknown> = {
      'POST /api/customer/users': { email: 'matrix-new@acme.example' },
      'POST /api/customer/sites': { site_name: 'Matrix', site_code: 'MTX' },
      'POST /api/customer/deployment-packages': { name: 'Matrix package' },
      'POST /api/customer/agents/enrollment-tokens': { name: 'Matrix token' },
      'PUT /api/customer/auth/profile': { company: 'Matrix Inc' },
      'POST /api/customer/custom-fields': { key: 'matrix_new', name: 'Matrix new', field_type: 'text' },
      'POST /api/customer/tags': { name: 'Matrix new tag' },
      'POST /api/customer/groups': { name: 'Matrix static group', kind: 'static' },
      'POST /api/customer/groups/:id/members': { device_ids: [acme.device] },
      'POST /api/customer/maintenance-windows': windowBody(),
      'PUT /api/customer/maintenance-windows/:id': windowBody(),
      'POST /api/customer/notification-channels': channelBody('Matrix new hook'),
      'PUT /api/customer/notification-channels/:id': channelBody('Matrix hook'),
      'POST /api/customer/notification-channels/:id/test': undefined,
      'POST /api/customer/notification-channels/:id/deliveries/:deliveryId/redeliver': undefined,
      'POST /api/customer/alert-routes': routeBody('Matrix new route'),
      'POST /api/customer/script-runs/dev': {
        name: 'Matrix script',
        language: 'bash',
        body: 'echo matrix',
        device_ids: [acme.device],
      },
      'POST /api/customer/monitoring-policies': {
        name: 'Matrix new checks',
        target_type: 'site',
        site_id: acme.site,
      },
      'POST /api/customer/scripts': scriptBody('Matrix new script'),
      'POST /api/customer/scripts/import': bodyFor('POST', '/api/customer/scripts/import'),
      'POST /api/customer/api-tokens': { name: 'Matrix new token', scopes: ['devices:read'] },
      'POST /api/customer/webhooks': webhookBody('Matrix new webhook'),
      'PUT /api/customer/webhooks/:id': webhookBody('Matrix webhook'),
      'POST /api/customer/webhooks/:id/test': undefined,
      'POST /api/customer/webhooks/:id/deliveries/:deliveryId/redeliver': undefined,
    };
    const entries = async () =>
      (await server.database.db.select({ id: auditLogs.id }).from(auditLogs)).length;
    const succeeded: string[] = [];
    for (const r of changing) {
      const key = `${r.method} ${r.url}`;
      const before = await entries();
      const res = await call(r.method, idsFor(r.url)!, admin, creates[key] ?? bodyFor(r.method, r.url));
      if (res.status >= 200 && res.status < 300) {
        succeeded.push(key);
        expect(await entries(), `${key} changed something without an audit entry`).toBeGreaterThan(before);
      }
    }
    expect(succeeded).toEqual(
      expect.arrayContaining([
        ...Object.keys(creates),
        'POST /api/customer/auth/logout',
        'POST /api/customer/devices/tags',
        'PUT /api/customer/devices/:id/tags',
        'PUT /api/customer/tags/:id',
        'PUT /api/customer/scripts/:id',
        'POST /api/customer/scripts/:id/runs',
        'DELETE /api/customer/scripts/:id',
        'DELETE /api/customer/api-tokens/:id',
      ]),
    );
    expect(succeeded.length).toBeGreaterThan(15);
  });
});

describe('the authorisation backstop', () => {
  it('fails closed, with a clear log, a route that made no authorisation decision', async () => {
    const lines: string[] = [];
    const config = loadConfig({
      DATA_DIR: `/tmp/outpost-test-${process.pid}`,
      SESSION_SECRET: 'integration-tests-session-secret-0123456789',
      LOG_LEVEL: 'error',
      PORT: '0',
    });
    const database = await openDatabase({});
    const app = await buildApp({ config, database, logStream: { write: (line) => lines.push(line) } });
    let handled = 0;
    app.get('/api/customer/forgotten', (_request, reply) => {
      handled += 1;
      void reply.send({ success: true, data: 'secret' });
    });
    app.get('/api/customer/declared', { config: { access: 'public' } }, (_request, reply) => {
      void reply.send({ success: true, data: 'ok' });
    });
    try {
      expect(app.apiRoutes.find((r) => r.url === '/api/customer/forgotten')?.access).toBeUndefined();
      const res = await app.inject({ method: 'GET', url: '/api/customer/forgotten' });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({
        success: false,
        error: adminMessages.accessNotDeclared('GET', '/api/customer/forgotten'),
        code: 'ACCESS_NOT_DECLARED',
      });
      expect(handled).toBe(0);
      expect(lines.join('\n')).toContain('authorisation backstop: the route made no authorisation decision');
      expect((await app.inject({ method: 'GET', url: '/api/customer/declared' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
