import { describe, expect, it } from 'vitest';
import { claimValues, mappedAccess, sameAccess } from './sso-access';
import { ssoConfigFrom } from './sso-config';

const rules = {
  groupsClaim: 'groups',
  defaultRole: 'user' as const,
  mappings: [
    { group: 'admins', role: 'tenant_admin' as const, site_ids: null },
    { group: 'hq', role: 'user' as const, site_ids: [3, 1] },
    { group: 'lon', role: 'user' as const, site_ids: [2] },
    { group: 'lon-admins', role: 'tenant_admin' as const, site_ids: [2] },
  ],
};

describe('group claims to Outpost access', () => {
  it('leaves access alone when no groups are mapped', () => {
    expect(mappedAccess({ ...rules, groupsClaim: null }, { groups: ['admins'] })).toBeNull();
    expect(mappedAccess({ ...rules, mappings: [] }, { groups: ['admins'] })).toBeNull();
  });
  it('gives the default role on all sites to someone in no mapped group', () => {
    expect(mappedAccess(rules, { groups: ['other'] })).toEqual({
      role: 'user',
      siteAccessType: 'all',
      siteIds: [],
    });
    expect(mappedAccess(rules, {})).toEqual({ role: 'user', siteAccessType: 'all', siteIds: [] });
  });
  it('adds grants up: administrator over user, all sites over specific, specific sites together', () => {
    expect(mappedAccess(rules, { groups: ['hq', 'lon'] })).toEqual({
      role: 'user',
      siteAccessType: 'specific',
      siteIds: [1, 2, 3],
    });
    expect(mappedAccess(rules, { groups: ['hq', 'lon-admins'] })).toMatchObject({
      role: 'tenant_admin',
      siteAccessType: 'specific',
    });
    expect(mappedAccess(rules, { groups: ['hq', 'admins'] })).toEqual({
      role: 'tenant_admin',
      siteAccessType: 'all',
      siteIds: [],
    });
  });
  it('reads a single string claim (a role) as well as a list', () => {
    expect(claimValues({ roles: 'admins' }, 'roles')).toEqual(['admins']);
    expect(claimValues({ roles: ['a', 1, 'b'] }, 'roles')).toEqual(['a', 'b']);
  });
  it('compares access', () => {
    expect(
      sameAccess(
        { role: 'user', siteAccessType: 'all', siteIds: [1] },
        { role: 'user', siteAccessType: 'all', siteIds: [] },
      ),
    ).toBe(true);
    expect(
      sameAccess(
        { role: 'user', siteAccessType: 'specific', siteIds: [1] },
        { role: 'user', siteAccessType: 'specific', siteIds: [2] },
      ),
    ).toBe(false);
  });
});

describe('server-wide single sign-on configuration', () => {
  const none = {
    ENTRA_TENANT_ID: undefined,
    ENTRA_CLIENT_ID: undefined,
    ENTRA_CLIENT_SECRET: undefined,
    ENTRA_ISSUER: undefined,
    OIDC_ISSUER: undefined,
    OIDC_CLIENT_ID: undefined,
    OIDC_CLIENT_SECRET: undefined,
    OIDC_NAME: undefined,
    OUTPOST_PUBLIC_URL: undefined,
  };
  it('builds the Entra issuer from the directory (tenant) id', () => {
    const c = ssoConfigFrom({
      ...none,
      ENTRA_TENANT_ID: 'contoso-id',
      ENTRA_CLIENT_ID: 'app',
      ENTRA_CLIENT_SECRET: 's',
    });
    expect(c.microsoft?.issuer).toBe('https://login.microsoftonline.com/contoso-id/v2.0');
    expect(c.oidc).toBeNull();
  });
  it('refuses a half-configured provider with a message naming what is needed', () => {
    expect(() => ssoConfigFrom({ ...none, ENTRA_CLIENT_ID: 'app' })).toThrow(/ENTRA_CLIENT_SECRET/);
    expect(() => ssoConfigFrom({ ...none, OIDC_ISSUER: 'https://okta.example' })).toThrow(/OIDC_CLIENT_ID/);
  });
  it('configures nothing by default', () => {
    expect(ssoConfigFrom(none)).toEqual({ microsoft: null, oidc: null, publicUrl: null });
  });
});
