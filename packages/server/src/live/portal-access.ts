import type { RequestContext } from '../lib/context';

/**
 * What the portal socket asks of the modules, wired in app.ts so live/ imports none: who a token
 * belongs to (modules/auth/sessions.service.ts) and whether they may follow a device
 * (modules/devices/devices.service.ts).
 */
export type PortalAccess = {
  resolveSession(
    token: string,
    meta: { ip: string; userAgent: string | null },
  ): Promise<RequestContext | null>;
  canFollowDevice(ctx: RequestContext, deviceGuid: string): Promise<boolean>;
};
