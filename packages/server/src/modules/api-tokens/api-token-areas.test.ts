import { describe, expect, it } from 'vitest';
import { requiredScope, tokenRouteArea } from './api-token-areas';

// docs/product/administration.md#api-tokens: the one map of routes to areas.

describe('the map of /api/customer routes to token areas', () => {
  it('reads need read and everything else write, on the route area', () => {
    expect(requiredScope('GET', '/api/customer/devices')).toBe('devices:read');
    expect(requiredScope('HEAD', '/api/customer/devices/:id')).toBe('devices:read');
    expect(requiredScope('POST', '/api/customer/devices/tags')).toBe('devices:write');
    expect(requiredScope('DELETE', '/api/customer/deployment-packages/:id')).toBe('packages:write');
    expect(requiredScope('PUT', '/api/customer/maintenance-windows/:id')).toBe('deployments:write');
    expect(requiredScope('GET', '/api/customer/script-runs/:id')).toBe('scripts:read');
    expect(requiredScope('GET', '/api/customer/alert-routes')).toBe('alerts:read');
  });

  it('takes the first matching prefix, so device actions under /deployments are devices', () => {
    expect(tokenRouteArea('/api/customer/deployments/device-actions')).toBe('devices');
    expect(tokenRouteArea('/api/customer/deployments/:id')).toBe('deployments');
  });

  it('refuses interactive access, sessions, the tokens themselves and any unmapped route', () => {
    for (const pattern of [
      '/api/customer/devices/:id/terminal',
      '/api/customer/devices/:id/files/download',
      '/api/customer/file-transfers/:id',
      '/api/customer/auth/profile',
      '/api/customer/api-tokens',
      '/api/customer/settings/remote-access',
      '/api/customer/something-new',
      '/api/agent/enroll',
    ]) {
      expect(tokenRouteArea(pattern), pattern).toBe('refused');
      expect(requiredScope('GET', pattern), pattern).toBeNull();
    }
  });
});
