import { describe, expect, it } from 'vitest';
import { localFileName } from '../steps/sources';

describe('local file names of downloaded files', () => {
  it('keep the name and extension, without folders or unsafe characters', () => {
    expect(localFileName('setup.exe', 'file-1')).toBe('setup.exe');
    expect(localFileName('..\\..\\Windows\\evil.ps1', 'file-1')).toBe('evil.ps1');
    expect(localFileName('../../etc/passwd', 'file-1')).toBe('passwd');
    expect(localFileName('Agent Setup (x64) v2.msi', 'file-1')).toBe('Agent Setup _x64_ v2.msi');
    expect(localFileName('..', 'file-1')).toBe('file-1');
    expect(localFileName('.hidden', 'file-1')).toBe('hidden');
  });
});
