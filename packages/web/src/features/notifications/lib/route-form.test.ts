import { describe, expect, it } from 'vitest';
import { routeMessages } from '@outpost/contract/alerts';
import type { AlertRoute } from '@outpost/contract/alerts';
import { routeBodyOf, routeFormOf, toggled } from './route-form';

describe('the routing rule form (docs/product/monitoring.md#routing-rules)', () => {
  it('starts with warning and critical, every condition, all devices', () => {
    expect(routeFormOf(null)).toMatchObject({
      severities: ['warning', 'critical'],
      conditions: [],
      target_type: 'tenant',
      enabled: true,
    });
  });

  it('makes the body of a site rule and reads a rule back', () => {
    const form = {
      ...routeFormOf(null),
      name: 'Berlin on-call',
      target_type: 'site' as const,
      site_id: '4',
      conditions: ['offline' as const],
      channel_ids: [2, 3],
    };
    expect(routeBodyOf(form)).toEqual({
      body: {
        name: 'Berlin on-call',
        enabled: true,
        severities: ['warning', 'critical'],
        conditions: ['offline'],
        target_type: 'site',
        site_id: 4,
        group_id: null,
        channel_ids: [2, 3],
      },
    });
    const route: AlertRoute = {
      id: 1,
      name: 'Berlin on-call',
      enabled: false,
      severities: ['critical'],
      conditions: [],
      target: { type: 'group', site_id: null, group_id: 9, name: 'Servers' },
      channels: [{ id: 2, name: 'Ops' }],
    };
    expect(routeFormOf(route)).toMatchObject({
      target_type: 'group',
      group_id: '9',
      channel_ids: [2],
      enabled: false,
    });
  });

  it("says what is missing in the contract's words", () => {
    expect(routeBodyOf({ ...routeFormOf(null), severities: [], target_type: 'group', group_id: '' })).toEqual(
      {
        errors: {
          name: 'Name is required',
          severities: routeMessages.severitiesRequired,
          channel_ids: routeMessages.channelsRequired,
          group_id: 'Choose a group',
        },
      },
    );
  });

  it('toggles a choice', () => {
    expect(toggled(['info'], 'critical')).toEqual(['info', 'critical']);
    expect(toggled(['info', 'critical'], 'info')).toEqual(['critical']);
  });
});
