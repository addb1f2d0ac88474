// What a simulated fleet is made of: real product names and plausible versions, so the demo looks
// like an office, not like test data. Nothing here claims to describe a real machine.

export type Model = {
  manufacturer: string;
  model: string;
  os: 'windows' | 'macos';
  kind: 'laptop' | 'desktop';
  cpus: readonly string[];
  memory: readonly number[][];
  disks: readonly number[];
  serial: (hex: string) => string;
};

const GB = 1e9;

export const MODELS: readonly Model[] = [
  {
    manufacturer: 'Dell Inc.',
    model: 'Latitude 5440',
    os: 'windows',
    kind: 'laptop',
    cpus: ['13th Gen Intel(R) Core(TM) i5-1345U', '13th Gen Intel(R) Core(TM) i7-1365U'],
    memory: [
      [8, 8],
      [16, 16],
    ],
    disks: [256 * GB, 512 * GB],
    serial: (h) => h.slice(0, 7).toUpperCase(),
  },
  {
    manufacturer: 'Dell Inc.',
    model: 'OptiPlex 7010',
    os: 'windows',
    kind: 'desktop',
    cpus: ['13th Gen Intel(R) Core(TM) i5-13500', '12th Gen Intel(R) Core(TM) i7-12700'],
    memory: [[8], [16], [16, 16]],
    disks: [256 * GB, 512 * GB, 1000 * GB],
    serial: (h) => h.slice(0, 7).toUpperCase(),
  },
  {
    manufacturer: 'HP',
    model: 'EliteBook 840 G9',
    os: 'windows',
    kind: 'laptop',
    cpus: ['12th Gen Intel(R) Core(TM) i5-1245U', '12th Gen Intel(R) Core(TM) i7-1265U'],
    memory: [[16], [8, 8], [16, 16]],
    disks: [256 * GB, 512 * GB],
    serial: (h) => `5CG${h.slice(0, 7).toUpperCase()}`,
  },
  {
    manufacturer: 'HP',
    model: 'ProDesk 400 G7 SFF',
    os: 'windows',
    kind: 'desktop',
    cpus: ['Intel(R) Core(TM) i5-10500 CPU @ 3.10GHz'],
    memory: [[8], [8, 8]],
    disks: [256 * GB, 512 * GB],
    serial: (h) => `CZC${h.slice(0, 7).toUpperCase()}`,
  },
  {
    manufacturer: 'LENOVO',
    model: 'ThinkPad T14 Gen 3',
    os: 'windows',
    kind: 'laptop',
    cpus: ['AMD Ryzen 7 PRO 6850U with Radeon Graphics', '12th Gen Intel(R) Core(TM) i5-1245U'],
    memory: [[16], [32]],
    disks: [512 * GB, 1000 * GB],
    serial: (h) => `PF${h.slice(0, 6).toUpperCase()}`,
  },
  {
    manufacturer: 'LENOVO',
    model: 'ThinkCentre M70q Gen 3',
    os: 'windows',
    kind: 'desktop',
    cpus: ['12th Gen Intel(R) Core(TM) i5-12400T'],
    memory: [[8], [16]],
    disks: [256 * GB, 512 * GB],
    serial: (h) => `MJ${h.slice(0, 6).toUpperCase()}`,
  },
  {
    manufacturer: 'Apple Inc.',
    model: 'MacBook Pro (14-inch, M3, 2023)',
    os: 'macos',
    kind: 'laptop',
    cpus: ['Apple M3', 'Apple M3 Pro'],
    memory: [[16], [18], [36]],
    disks: [512 * GB, 1000 * GB],
    serial: (h) => `C02${h.slice(0, 9).toUpperCase()}`,
  },
  {
    manufacturer: 'Apple Inc.',
    model: 'MacBook Air (13-inch, M2, 2022)',
    os: 'macos',
    kind: 'laptop',
    cpus: ['Apple M2'],
    memory: [[8], [16]],
    disks: [256 * GB, 512 * GB],
    serial: (h) => `FVF${h.slice(0, 9).toUpperCase()}`,
  },
  {
    manufacturer: 'Apple Inc.',
    model: 'iMac (24-inch, M3, 2023)',
    os: 'macos',
    kind: 'desktop',
    cpus: ['Apple M3'],
    memory: [[8], [16], [24]],
    disks: [256 * GB, 512 * GB],
    serial: (h) => `G${h.slice(0, 11).toUpperCase()}`,
  },
];

export const WINDOWS_VERSIONS = [
  'Microsoft Windows 11 Pro 23H2 (10.0.22631)',
  'Microsoft Windows 11 Enterprise 23H2 (10.0.22631)',
  'Microsoft Windows 11 Pro 22H2 (10.0.22621)',
  'Microsoft Windows 10 Pro 22H2 (10.0.19045)',
  'Microsoft Windows 10 Enterprise 22H2 (10.0.19045)',
] as const;
export const MAC_VERSIONS = ['macOS 14.5 Sonoma', 'macOS 14.4.1 Sonoma', 'macOS 13.6.7 Ventura'] as const;

export type Title = { name: string; publisher: string; versions: readonly string[]; always?: boolean };

export const WINDOWS_SOFTWARE: readonly Title[] = [
  {
    name: 'Microsoft Edge',
    publisher: 'Microsoft Corporation',
    versions: ['125.0.2535.92', '126.0.2592.68'],
    always: true,
  },
  {
    name: 'Microsoft 365 Apps for enterprise - en-us',
    publisher: 'Microsoft Corporation',
    versions: ['16.0.17628.20144', '16.0.17726.20160'],
    always: true,
  },
  { name: 'Microsoft Teams', publisher: 'Microsoft Corporation', versions: ['24124.2315.2911.3357'] },
  {
    name: 'Microsoft OneDrive',
    publisher: 'Microsoft Corporation',
    versions: ['24.106.0528.0001'],
    always: true,
  },
  {
    name: 'Microsoft Visual C++ 2015-2022 Redistributable (x64) - 14.38.33135',
    publisher: 'Microsoft Corporation',
    versions: ['14.38.33135.0'],
    always: true,
  },
  {
    name: 'Microsoft Visual C++ 2015-2022 Redistributable (x86) - 14.38.33135',
    publisher: 'Microsoft Corporation',
    versions: ['14.38.33135.0'],
  },
  {
    name: 'Microsoft .NET Runtime - 8.0.6 (x64)',
    publisher: 'Microsoft Corporation',
    versions: ['8.0.6.33720'],
  },
  {
    name: 'Microsoft Windows Desktop Runtime - 6.0.31 (x64)',
    publisher: 'Microsoft Corporation',
    versions: ['6.0.31.33720'],
  },
  { name: 'Google Chrome', publisher: 'Google LLC', versions: ['125.0.6422.142', '126.0.6478.127'] },
  { name: 'Mozilla Firefox (x64 en-US)', publisher: 'Mozilla', versions: ['126.0.1', '127.0.2'] },
  { name: 'Adobe Acrobat Reader DC', publisher: 'Adobe', versions: ['24.002.20857', '24.002.20895'] },
  { name: '7-Zip 23.01 (x64)', publisher: 'Igor Pavlov', versions: ['23.01'] },
  { name: 'Notepad++ (64-bit x64)', publisher: 'Notepad++ Team', versions: ['8.6.7', '8.6.8'] },
  { name: 'VLC media player', publisher: 'VideoLAN', versions: ['3.0.20', '3.0.21'] },
  {
    name: 'Zoom Workplace (64-bit)',
    publisher: 'Zoom Video Communications, Inc.',
    versions: ['6.0.11 (39959)'],
  },
  { name: 'Slack', publisher: 'Slack Technologies Inc.', versions: ['4.38.125'] },
  { name: 'Cisco Secure Client - AnyConnect VPN', publisher: 'Cisco Systems, Inc.', versions: ['5.1.3.62'] },
  { name: 'FortiClient VPN', publisher: 'Fortinet Technologies Inc', versions: ['7.2.4.0972'] },
  { name: 'Dell Command | Update for Windows Universal', publisher: 'Dell Inc.', versions: ['5.3.0'] },
  { name: 'HP Support Assistant', publisher: 'HP Inc.', versions: ['9.29.33.0'] },
  { name: 'Lenovo Vantage Service', publisher: 'Lenovo Group Ltd.', versions: ['4.1.6.0'] },
  { name: 'Intel(R) Graphics Driver', publisher: 'Intel Corporation', versions: ['31.0.101.5445'] },
  { name: 'Realtek Audio Driver', publisher: 'Realtek Semiconductor Corp.', versions: ['6.0.9549.1'] },
  { name: 'Git', publisher: 'The Git Development Community', versions: ['2.45.2'] },
  { name: 'Microsoft Visual Studio Code', publisher: 'Microsoft Corporation', versions: ['1.90.2'] },
  { name: 'Python 3.12.4 (64-bit)', publisher: 'Python Software Foundation', versions: ['3.12.4150.0'] },
  { name: 'Node.js', publisher: 'Node.js Foundation', versions: ['20.15.0'] },
  { name: 'PuTTY release 0.81 (64-bit)', publisher: 'Simon Tatham', versions: ['0.81.0.0'] },
  { name: 'WinSCP 6.3.3', publisher: 'Martin Prikryl', versions: ['6.3.3'] },
  { name: 'Greenshot 1.2.10.6', publisher: 'Greenshot', versions: ['1.2.10.6'] },
  { name: 'KeePass Password Safe 2.57', publisher: 'Dominik Reichl', versions: ['2.57'] },
  { name: 'Microsoft Power BI Desktop (x64)', publisher: 'Microsoft Corporation', versions: ['2.130.930.0'] },
  { name: 'Citrix Workspace 2405', publisher: 'Citrix Systems, Inc.', versions: ['24.5.0.131'] },
  { name: 'TeamViewer', publisher: 'TeamViewer', versions: ['15.54.6'] },
  { name: 'Java 8 Update 411 (64-bit)', publisher: 'Oracle Corporation', versions: ['8.0.4110.9'] },
  { name: 'SAP GUI for Windows 8.00  (Patchlevel 10)', publisher: 'SAP SE', versions: ['8.00.10'] },
  { name: 'AutoCAD LT 2024', publisher: 'Autodesk, Inc.', versions: ['24.3.61.0'] },
  { name: 'Microsoft Project - en-us', publisher: 'Microsoft Corporation', versions: ['16.0.17628.20144'] },
  { name: 'Microsoft Visio - en-us', publisher: 'Microsoft Corporation', versions: ['16.0.17628.20144'] },
  { name: 'Windows PC Health Check', publisher: 'Microsoft Corporation', versions: ['3.7.2204.15001'] },
];

export const MAC_SOFTWARE: readonly Title[] = [
  { name: 'Safari', publisher: 'Apple Inc.', versions: ['17.5'], always: true },
  { name: 'Microsoft Outlook', publisher: 'Microsoft Corporation', versions: ['16.86'], always: true },
  { name: 'Microsoft Word', publisher: 'Microsoft Corporation', versions: ['16.86'], always: true },
  { name: 'Microsoft Excel', publisher: 'Microsoft Corporation', versions: ['16.86'] },
  { name: 'Microsoft PowerPoint', publisher: 'Microsoft Corporation', versions: ['16.86'] },
  { name: 'Microsoft Teams', publisher: 'Microsoft Corporation', versions: ['24124.1412.2911.3341'] },
  { name: 'Google Chrome', publisher: 'Google LLC', versions: ['126.0.6478.127'] },
  { name: 'Firefox', publisher: 'Mozilla Corporation', versions: ['127.0.2'] },
  { name: 'Slack', publisher: 'Slack Technologies, Inc.', versions: ['4.38.125'] },
  { name: 'zoom.us', publisher: 'Zoom Video Communications, Inc.', versions: ['6.1.1 (36333)'] },
  { name: '1Password', publisher: 'AgileBits Inc.', versions: ['8.10.33'] },
  { name: 'Visual Studio Code', publisher: 'Microsoft Corporation', versions: ['1.90.2'] },
  { name: 'iTerm', publisher: 'George Nachman', versions: ['3.5.2'] },
  { name: 'Figma', publisher: 'Figma, Inc.', versions: ['124.1.16'] },
  { name: 'Adobe Acrobat Reader', publisher: 'Adobe Inc.', versions: ['24.002.20857'] },
  { name: 'Keynote', publisher: 'Apple Inc.', versions: ['14.1'] },
  { name: 'Numbers', publisher: 'Apple Inc.', versions: ['14.1'] },
  { name: 'Pages', publisher: 'Apple Inc.', versions: ['14.1'] },
  { name: 'Rectangle', publisher: 'Ryan Hanson', versions: ['0.80'] },
  { name: 'VLC', publisher: 'VideoLAN', versions: ['3.0.21'] },
];

/** Windows services with the states they usually have (some vary per machine). */
export const WINDOWS_SERVICES: readonly {
  name: string;
  display: string;
  start: string;
  states: readonly string[];
}[] = [
  { name: 'AudioSrv', display: 'Windows Audio', start: 'Automatic', states: ['Running'] },
  {
    name: 'BITS',
    display: 'Background Intelligent Transfer Service',
    start: 'Manual',
    states: ['Running', 'Stopped'],
  },
  { name: 'BFE', display: 'Base Filtering Engine', start: 'Automatic', states: ['Running'] },
  { name: 'CryptSvc', display: 'Cryptographic Services', start: 'Automatic', states: ['Running'] },
  { name: 'Dhcp', display: 'DHCP Client', start: 'Automatic', states: ['Running'] },
  { name: 'Dnscache', display: 'DNS Client', start: 'Automatic', states: ['Running'] },
  { name: 'EventLog', display: 'Windows Event Log', start: 'Automatic', states: ['Running'] },
  { name: 'gpsvc', display: 'Group Policy Client', start: 'Automatic', states: ['Running'] },
  { name: 'LanmanServer', display: 'Server', start: 'Automatic', states: ['Running'] },
  { name: 'LanmanWorkstation', display: 'Workstation', start: 'Automatic', states: ['Running'] },
  { name: 'mpssvc', display: 'Windows Defender Firewall', start: 'Automatic', states: ['Running'] },
  {
    name: 'WinDefend',
    display: 'Microsoft Defender Antivirus Service',
    start: 'Automatic',
    states: ['Running'],
  },
  {
    name: 'Spooler',
    display: 'Print Spooler',
    start: 'Automatic',
    states: ['Running', 'Running', 'Stopped'],
  },
  { name: 'Schedule', display: 'Task Scheduler', start: 'Automatic', states: ['Running'] },
  { name: 'Themes', display: 'Themes', start: 'Automatic', states: ['Running'] },
  { name: 'W32Time', display: 'Windows Time', start: 'Manual', states: ['Running', 'Stopped'] },
  { name: 'wuauserv', display: 'Windows Update', start: 'Manual', states: ['Running', 'Stopped', 'Stopped'] },
  { name: 'WSearch', display: 'Windows Search', start: 'Automatic', states: ['Running', 'Start Pending'] },
  { name: 'Winmgmt', display: 'Windows Management Instrumentation', start: 'Automatic', states: ['Running'] },
  {
    name: 'WinRM',
    display: 'Windows Remote Management (WS-Management)',
    start: 'Manual',
    states: ['Stopped', 'Running'],
  },
  {
    name: 'TermService',
    display: 'Remote Desktop Services',
    start: 'Manual',
    states: ['Stopped', 'Running'],
  },
  { name: 'RemoteRegistry', display: 'Remote Registry', start: 'Disabled', states: ['Stopped'] },
  { name: 'Fax', display: 'Fax', start: 'Manual', states: ['Stopped'] },
  { name: 'SysMain', display: 'SysMain', start: 'Automatic', states: ['Running', 'Paused'] },
  { name: 'TrkWks', display: 'Distributed Link Tracking Client', start: 'Automatic', states: ['Running'] },
  {
    name: 'WpnService',
    display: 'Windows Push Notifications System Service',
    start: 'Automatic',
    states: ['Running'],
  },
  { name: 'XblGameSave', display: 'Xbox Live Game Save', start: 'Manual', states: ['Stopped'] },
  {
    name: 'MSSQL$SQLEXPRESS',
    display: 'SQL Server (SQLEXPRESS)',
    start: 'Automatic',
    states: ['Running', 'Stopped', 'Paused'],
  },
  { name: 'OutpostAgent', display: 'Outpost Agent', start: 'Automatic', states: ['Running'] },
];

export const MAC_SERVICES: readonly { name: string; states: readonly string[] }[] = [
  { name: 'com.apple.mDNSResponder', states: ['Running'] },
  { name: 'com.apple.softwareupdated', states: ['Running', 'Stopped'] },
  { name: 'com.apple.backupd', states: ['Stopped', 'Running'] },
  { name: 'com.apple.cupsd', states: ['Stopped'] },
  { name: 'com.apple.sshd', states: ['Stopped'] },
  { name: 'com.microsoft.autoupdate.helper', states: ['Running', 'Stopped'] },
  { name: 'com.outpost.agent', states: ['Running'] },
];

export const FIRST_NAMES = [
  'alex',
  'sam',
  'jordan',
  'taylor',
  'morgan',
  'casey',
  'riley',
  'jamie',
  'avery',
  'quinn',
  'drew',
  'robin',
  'lee',
  'kim',
  'pat',
  'chris',
] as const;
export const LAST_NAMES = [
  'smith',
  'jones',
  'garcia',
  'chen',
  'patel',
  'nguyen',
  'muller',
  'rossi',
  'kowalski',
  'okafor',
  'silva',
  'larsen',
  'tanaka',
  'dubois',
] as const;
