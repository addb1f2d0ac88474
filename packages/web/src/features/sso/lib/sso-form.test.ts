import { describe, expect, it } from 'vitest';
import { parseDomains, toBody, toForm } from './sso-form';

describe('the SSO screen form', () => {
  it('reads domains typed any way', () => {
    expect(parseDomains('Acme.example, @acme.example\nbranch.example;')).toEqual([
      'acme.example',
      'branch.example',
    ]);
  });
  it('keeps the stored secret when the field is left empty, and drops blank mapping rows', () => {
    const body = toBody({
      ...toForm(null),
      issuer: 'https://login.example/ ',
      clientId: 'app',
      domains: 'acme.example',
      groupsClaim: ' groups ',
      mappings: [
        { group: 'admins', role: 'tenant_admin', allSites: true, siteIds: [4] },
        { group: 'hq', role: 'user', allSites: false, siteIds: [1, 2] },
        { group: ' ', role: 'user', allSites: true, siteIds: [] },
      ],
    });
    expect(body).not.toHaveProperty('client_secret');
    expect(body.groups_claim).toBe('groups');
    expect(body.mappings).toEqual([
      { group: 'admins', role: 'tenant_admin', site_ids: null },
      { group: 'hq', role: 'user', site_ids: [1, 2] },
    ]);
  });
});
