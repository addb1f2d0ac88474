import { describe, expect, it } from 'vitest';
import { deleteSitesMessage, deletedSitesMessage } from './site-delete';

describe('deleting sites says what happens to their devices', () => {
  it('confirms one site, with its devices becoming unassigned', () => {
    expect(deleteSitesMessage([{ site_name: 'London Office', device_count: 3 }])).toBe(
      'Are you sure you want to delete the site "London Office"? Its 3 devices will become unassigned. This action cannot be undone.',
    );
    expect(deleteSitesMessage([{ site_name: 'Empty', device_count: 0 }])).toBe(
      'Are you sure you want to delete the site "Empty"? This action cannot be undone.',
    );
  });

  it('confirms several sites with the total of their devices', () => {
    expect(
      deleteSitesMessage([
        { site_name: 'A', device_count: 1 },
        { site_name: 'B', device_count: 0 },
      ]),
    ).toMatch(/^Are you sure you want to delete 2 sites\? Their 1 device will become unassigned;/);
    expect(
      deleteSitesMessage([
        { site_name: 'A', device_count: 0 },
        { site_name: 'B', device_count: 0 },
      ]),
    ).toBe('Are you sure you want to delete 2 sites? This action cannot be undone.');
  });

  it('reports the result from the server answer', () => {
    expect(deletedSitesMessage({ deleted: 2, devices_unassigned: 5 })).toBe(
      'Deleted 2 sites; 5 devices are now unassigned',
    );
    expect(deletedSitesMessage({ deleted: 1, devices_unassigned: 0 })).toBe('Deleted 1 site');
  });
});
