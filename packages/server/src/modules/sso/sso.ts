import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { createSecretBox } from '../../lib/secret-box';
import { createAuthService } from '../auth/auth.service';
import { createSessionControl } from '../auth/sessions.service';
import type { SessionTokens } from '../auth/session-token';
import { createOidcClient } from './oidc-client';
import { createSsoSignIn } from './sso-sign-in';
import { createSsoService } from './sso.service';

/**
 * Single sign-on (docs/product/sign-in.md#single-sign-on): the SSO screen's service and the
 * sign-in flow, sharing one OpenID Connect client (its discovery and key caches).
 */
export function createSso(deps: {
  db: Db;
  tokens: SessionTokens;
  config: Pick<Config, 'sso' | 'sessionSecret'>;
  announceEnded: (userIds: number[]) => Promise<void>;
}) {
  const client = createOidcClient();
  // client secrets and flow cookies each have their own key (lib/secret-box.ts purposes)
  const secrets = createSecretBox(deps.config.sessionSecret, 'sso client secrets');
  const flows = createSecretBox(deps.config.sessionSecret, 'sso sign-in flow');
  return {
    sso: createSsoService({ db: deps.db, client, secrets }),
    ssoSignIn: createSsoSignIn({
      db: deps.db,
      sso: deps.config.sso,
      auth: createAuthService({ db: deps.db, tokens: deps.tokens }),
      client,
      secrets,
      flows,
      sessions: createSessionControl(deps.announceEnded),
    }),
  };
}
