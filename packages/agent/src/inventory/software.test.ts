import { describe, expect, it } from 'vitest';
import { parseDpkg, parseMacSoftware, parseWindowsSoftware } from './software';

describe('software adapters', () => {
  it('parses the Windows uninstall registry keys', () => {
    const json = JSON.stringify([
      {
        PSChildName: '{23170F69-40C1-2702-2301-000001000000}',
        DisplayName: '7-Zip 23.01 (x64)',
        Publisher: 'Igor Pavlov',
        DisplayVersion: '23.01',
        InstallDate: '20240115',
      },
      {
        PSChildName: 'Google Chrome',
        DisplayName: 'Google Chrome',
        Publisher: 'Google LLC',
        DisplayVersion: '126.0.6478.127',
        InstallDate: null,
      },
      { PSChildName: 'KB5034441', DisplayName: null },
    ]);
    expect(parseWindowsSoftware(json)).toEqual([
      {
        name: '7-Zip 23.01 (x64)',
        displayName: '7-Zip 23.01 (x64)',
        publisher: 'Igor Pavlov',
        version: '23.01',
        installDate: '2024-01-15',
      },
      {
        name: 'Google Chrome',
        displayName: 'Google Chrome',
        publisher: 'Google LLC',
        version: '126.0.6478.127',
        installDate: null,
      },
    ]);
  });

  it('parses system_profiler SPApplicationsDataType -json', () => {
    const json = JSON.stringify({
      SPApplicationsDataType: [
        {
          _name: 'Slack',
          version: '4.38.125',
          lastModified: '2024-06-20T08:12:00Z',
          signed_by: [
            'Developer ID Application: Slack Technologies, Inc. (BQR82RBBHL)',
            'Developer ID Certification Authority',
          ],
        },
        {
          _name: 'Safari',
          version: '17.5',
          lastModified: '2024-05-13T19:02:11Z',
          signed_by: ['Software Signing'],
        },
      ],
    });
    expect(parseMacSoftware(json)).toEqual([
      {
        name: 'Slack',
        displayName: 'Slack',
        publisher: 'Slack Technologies, Inc.',
        version: '4.38.125',
        installDate: '2024-06-20',
      },
      {
        name: 'Safari',
        displayName: 'Safari',
        publisher: 'Software Signing',
        version: '17.5',
        installDate: '2024-05-13',
      },
    ]);
  });

  it('parses dpkg-query output', () => {
    expect(parseDpkg('bash\t5.2.15-2+b7\tMatthias Klose <doko@debian.org>\ncurl\t7.88.1-10\t\n')).toEqual([
      {
        name: 'bash',
        displayName: null,
        publisher: 'Matthias Klose',
        version: '5.2.15-2+b7',
        installDate: null,
      },
      { name: 'curl', displayName: null, publisher: null, version: '7.88.1-10', installDate: null },
    ]);
  });
});
