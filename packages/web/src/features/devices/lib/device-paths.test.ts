import { describe, expect, it } from 'vitest';
import { crumbsOf, joinPath, parentPath, pathStyleOf, topPath } from './device-paths';

describe('device paths', () => {
  it('joins, climbs and crumbs Windows paths from the drives', () => {
    expect(pathStyleOf('windows')).toBe('windows');
    expect(topPath('windows')).toBe('');
    expect(joinPath('', 'C:\\', 'windows')).toBe('C:\\');
    expect(joinPath('C:\\', 'Users', 'windows')).toBe('C:\\Users');
    expect(joinPath('C:\\Users', 'alice', 'windows')).toBe('C:\\Users\\alice');
    expect(parentPath('C:\\Users\\alice', 'windows')).toBe('C:\\Users');
    expect(parentPath('C:\\Users', 'windows')).toBe('C:\\');
    expect(parentPath('C:\\', 'windows')).toBe('');
    expect(crumbsOf('C:\\Users\\alice', 'windows')).toEqual([
      { label: 'This PC', path: '' },
      { label: 'C:', path: 'C:\\' },
      { label: 'Users', path: 'C:\\Users' },
      { label: 'alice', path: 'C:\\Users\\alice' },
    ]);
  });

  it('joins, climbs and crumbs the others from /', () => {
    expect(topPath('posix')).toBe('/');
    expect(joinPath('/', 'etc', 'posix')).toBe('/etc');
    expect(joinPath('/etc', 'hosts', 'posix')).toBe('/etc/hosts');
    expect(parentPath('/etc/ssh', 'posix')).toBe('/etc');
    expect(parentPath('/etc', 'posix')).toBe('/');
    expect(crumbsOf('/var/log', 'posix').map((c) => c.path)).toEqual(['/', '/var', '/var/log']);
  });
});
