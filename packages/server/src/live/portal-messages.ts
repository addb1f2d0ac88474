import {
  MAX_SUBSCRIPTIONS_PER_SOCKET,
  PortalClientMessage,
  parseSubscriptionKey,
} from '@outpost/contract/live';
import type { PortalEvents } from '@outpost/contract/live';
import { messages } from '@outpost/contract/messages';
import type { RequestContext } from '../lib/context';
import { canSeeSite } from '../lib/scope';
import type { PortalAccess } from './portal-access';
import type { Client, PortalClients } from './portal-clients';

// The messages a portal socket sends (portal-socket.ts): ping, subscribe and unsubscribe, each
// subscription checked against the caller's tenant and site scope.

/** Decides whether a caller may subscribe to `deployment:{id}` (the deployments module's, given by app.ts). */
export type SubscriptionAuthorizer = (
  ctx: RequestContext,
  id: number,
) => Promise<{ siteId: number | null; snapshot?: PortalEvents['deployment_update'] } | null>;

type SubscribeMessage = Extract<PortalClientMessage, { type: 'subscribe' }>;

type MessageDeps = {
  access: PortalAccess;
  clients: PortalClients;
  recheck: (client: Client) => Promise<boolean>;
  authorizeDeployment: SubscriptionAuthorizer;
};

/** Handles one text frame of an authenticated portal socket. */
export function createPortalMessageHandler(
  deps: MessageDeps,
): (client: Client, raw: string) => Promise<void> {
  const { clients, recheck } = deps;
  return async (client, raw) => {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      clients.control(client, 'error', { code: 'invalid_message', message: messages.wsInvalidMessage });
      return;
    }
    const parsed = PortalClientMessage.safeParse(json);
    if (!parsed.success) {
      clients.control(client, 'error', { code: 'invalid_message', message: messages.wsInvalidMessage });
      return;
    }
    const m = parsed.data;
    // Also re-read on every ping and subscription, so a changed role or site scope applies at once.
    if (m.type !== 'unsubscribe' && !(await recheck(client))) {
      return;
    }
    switch (m.type) {
      case 'ping':
        clients.control(client, 'pong', { serverTime: new Date().toISOString() });
        return;
      case 'unsubscribe': {
        const key = m.payload.subscriptionKey;
        clients.unfollow(client, key);
        clients.control(client, 'unsubscribed', { subscriptionKey: key });
        return;
      }
      case 'subscribe':
        await subscribe(deps, client, m);
        return;
    }
  };
}

async function subscribe(deps: MessageDeps, client: Client, m: SubscribeMessage) {
  const { clients } = deps;
  const raw = m.payload.subscriptionKey;
  const key = normalizeKey(raw);
  if (client.keys.has(key)) {
    clients.control(client, 'subscribed', { subscriptionKey: raw });
    return;
  }
  if (client.keys.size >= MAX_SUBSCRIPTIONS_PER_SOCKET) {
    clients.control(client, 'error', {
      code: 'too_many_subscriptions',
      message: messages.wsTooManySubscriptions,
      subscriptionKey: raw,
    });
    return;
  }
  const verdict = await authorize(deps, client.ctx, raw);
  if (typeof verdict === 'string') {
    // The same answer for "does not exist" and "not yours", so ids cannot be probed.
    clients.control(client, 'error', {
      code: verdict === 'invalid' ? 'invalid_subscription_key' : 'subscription_denied',
      message: verdict === 'invalid' ? messages.wsInvalidSubscriptionKey : messages.wsSubscriptionDenied,
      subscriptionKey: raw,
    });
    return;
  }
  clients.follow(client, key);
  clients.control(client, 'subscribed', { subscriptionKey: raw });
  // A job may have moved between the caller learning its id and subscribing (it starts at
  // once after a create): its current state follows, so no change is missed.
  if (verdict.snapshot) {
    clients.send(client, { type: 'deployment_update', payload: verdict.snapshot });
  }
}

/** 'ok' may bring the deployment's state now, sent right after 'subscribed'. */
async function authorize(
  deps: MessageDeps,
  ctx: RequestContext,
  key: string,
): Promise<'invalid' | 'denied' | { snapshot?: PortalEvents['deployment_update'] }> {
  const parsed = parseSubscriptionKey(key);
  if (!parsed) {
    return 'invalid';
  }
  if (parsed.kind === 'device') {
    return (await deps.access.canFollowDevice(ctx, parsed.deviceGuid)) ? {} : 'denied';
  }
  if (parsed.kind === 'alerts') {
    // the tenant's alerts: each one reaches only those who may see its site (portal-clients.ts)
    return {};
  }
  const deployment = await deps.authorizeDeployment(ctx, parsed.id);
  return deployment && canSeeSite(ctx, deployment.siteId) ? { snapshot: deployment.snapshot } : 'denied';
}

/** device guids are compared lower-case; everything else as given. */
function normalizeKey(key: string): string {
  const parsed = parseSubscriptionKey(key);
  if (parsed?.kind === 'device') {
    return `device:${parsed.deviceGuid}`;
  }
  return key;
}
