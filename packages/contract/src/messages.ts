// User-facing messages from the product's error catalogues (docs/product/README.md, docs/product/administration.md#users),
// word for word, plus the server's own messages. Errors carry the product's words; logs the details.

export const messages = {
  // Sign-in (docs/product/sign-in.md#sign-in-screen)
  loginFailed: (error?: string) => `Login failed: ${error || 'Unknown error'}`,
  loginNetworkError: 'Network error occurred during login. Please check your connection and try again.',
  microsoftSoon: 'Microsoft Sign-In will be available soon! Please use Google Sign-In for now.',
  switchFailed: (error: string) => `Failed to switch organization: ${error}`,
  profileSaved: 'Profile saved',
  // A server error while checking the session on reload: the session is kept (honest errors)
  profileLoad: 'Could not load your profile',
  sessionKept: 'Outpost could not reach the server or the server had a problem. You are still signed in.',
  // Dashboard and devices (docs/product/devices.md#dashboard)
  dashboardLoad: 'Failed to load dashboard data',
  devicesLoad: 'Failed to load devices',
  deviceLoad: 'Failed to load device',
  deviceNotFound: 'Device not found',
  httpError: (status: number) => `HTTP error! status: ${status}`,
  // A list whose load failed and is being retried (docs/architecture.md#web-app: three retries before the error)
  queryRetrying: 'Retrying…',
  queryRetryDetail: (retry: number, of: number) => `Loading failed; trying again (${retry} of ${of}).`,
  // Server-side auth errors
  tokenMissing: 'Authentication required',
  tokenInvalid: 'Your session is invalid or has expired. Please sign in again.',
  googleTokenInvalid: 'The Google sign-in token could not be verified',
  googleTokenWrongAudience: 'The Google sign-in token was issued for another application',
  googleTokenWrongIssuer: 'The Google sign-in token was not issued by Google',
  googleTokenExpired: 'The Google sign-in token has expired. Please sign in again.',
  googleEmailUnverified: 'Your Google e-mail address is not verified',
  notInvited:
    'This e-mail address has not been invited to any organization. Ask your administrator for an invitation.',
  devLoginDisabled:
    'Development sign-in is disabled on this server. The operator can turn it on for a local trial with OUTPOST_ALLOW_DEV_LOGIN=1.',
  devLoginLocalOnly:
    'Development sign-in is only available to a browser on the machine Outpost runs on, with no proxy in between. Sign in with Google instead.',
  signInLinkInvalid: 'This sign-in link is invalid, has expired or was already used. Ask for a new one.',
  googleLoginDisabled: 'Google sign-in is not configured on this server',
  tenantNotFound: 'Organization not found',
  adminOnly: 'Administrators only',
  notFound: 'Not found',
  routeNotFound: (method: string, url: string) => `Route ${method} ${url} not found`,
  internalError: 'Internal server error',
  databaseUnavailable: 'The database is unavailable; try again in a moment',
  validationFailed: 'Invalid request',
  // Agents, enrolment and live updates
  enrollTokenInvalid: 'The enrolment token is not valid',
  enrollTokenRevoked: 'The enrolment token has been revoked',
  enrollTokenExpired: 'The enrolment token has expired',
  maxAgentsReached: (max: number) =>
    `This organization has reached its limit of ${max} agents. Remove unused agents or raise the limit.`,
  agentAuthFailed: 'Agent authentication failed: unknown device or wrong secret',
  agentAuthMissing: 'Agent authentication required',
  agentTooManyConnections: 'Too many agent connections at once; retry later',
  agentTooManyFailures: 'Too many failed agent authentications from this address; retry later',
  agentTooManyMessages: 'Too many messages from this agent',
  tooManyRequests: 'Too many requests; retry later',
  agentUnsupportedProtocol: (version: number) => `Unsupported agent protocol version ${version}`,
  agentHelloRequired: 'The first message must be hello',
  agentInvalidMessage: 'Invalid agent message',
  agentUnknownCommand: 'Unknown command',
  enrollmentTokenNotFound: 'Enrolment token not found',
  siteNotFound: 'Site not found',
  wsMissingParameters: 'tenantId, userId and token are required',
  wsMismatch: 'tenantId and userId do not match the token',
  wsSubscriptionDenied: 'You do not have access to this subscription',
  wsInvalidSubscriptionKey: 'Unknown subscription key',
  wsTooManySubscriptions: 'Too many subscriptions on one connection',
  wsInvalidMessage: 'Invalid message',
  wsTooManyMessages: 'Too many messages waiting on this connection',
  // What a Windows agent cannot do without a working powershell.exe (docs/agent-windows.md)
  powershellUnavailable: 'PowerShell is not available on this device',
  inventoryNotReported: (parts: string) => `not reported: ${parts}`,
} as const;

// Packages, steps and files (docs/product/packages.md#validation and #saving, word for word), plus the server's own messages.
export const packageMessages = {
  packageNameRequired: 'Package name is required',
  packageStepsRequired: 'At least one installation step is required',
  stepNameRequired: 'Step name is required',
  requiredStepFields: (labels: string[]) => `Please fill in required fields: ${labels.join(', ')}`,
  stepTimeoutRange: 'Timeout must be between 1 and 3600 seconds',
  stepRetryRange: 'Retry count must be between 0 and 5',
  packageLoad: 'Failed to load package',
  packagesLoad: 'Failed to load packages',
  packageSave: 'Failed to save package',
  packageUpdate: 'Failed to update package',
  packageCreate: 'Failed to create package',
  stepAddFailed: (name: string, error: string) => `Failed to add step "${name}": ${error}`,
  stepUpdateFailed: (name: string, error: string) => `Failed to update step "${name}": ${error}`,
  stepDeleteFailed: 'Failed to delete step',
  fileUploadFailed: (reason: string) => `Failed to upload file: ${reason}`,
  packageDeleteFailed: (error?: string) =>
    error ? `Failed to delete package: ${error}` : 'Failed to delete package. Please try again.',
  packageDeleteConfirm: (name: string) =>
    `Are you sure you want to delete the package "${name}"? This action cannot be undone.`,
  selectPackagesFirst: 'Please select packages first',
  noPackagesFound: 'No packages found',
  // Server-side
  packageNotFound: 'Package not found',
  stepNotFound: 'Step not found',
  fileNotFound: 'File not found',
  packageInUse: (count: number) =>
    `This package is used by ${count} pending or running deployment${count === 1 ? '' : 's'} and cannot be deleted until ${count === 1 ? 'it ends' : 'they end'}.`,
  fileInUse: (stepName: string, packageName: string) =>
    `This file is used by the step "${stepName}" of the package "${packageName}" and cannot be deleted.`,
  fileTooLarge: (limit: string) => `The file is larger than the upload limit of ${limit}.`,
  fileMissing: 'Choose a file to upload (multipart field "file").',
  fileEmptyName: 'The uploaded file has no name.',
  storageQuotaExceeded: (remaining: string, quota: string) =>
    `The file does not fit in this organization's storage quota: ${remaining} of ${quota} is left. Delete files that are no longer used, or ask the Outpost operator to raise the quota.`,
  storageUsageLoad: 'Failed to load storage usage',
  stepFileUnknown: (label: string) => `The file chosen for ${label} no longer exists. Upload it again.`,
  reorderMismatch: 'The new order must list every step of the package exactly once.',
  targetOsWindowsOnly: 'A package targets Windows or Linux; macOS support is coming in a future release.',
  stepNotForTarget: (stepLabel: string, target: string) =>
    `A ${target} package cannot contain ${stepLabel} steps: they run on Windows only.`,
  targetHasWindowsOnlySteps: (target: string, steps: string[]) =>
    `The package cannot target ${target} while it has steps that run on Windows only: ${steps.join(', ')}.`,
  deployWrongOs: (target: string, hostnames: string[]) =>
    `This package targets ${target} and cannot be deployed to devices of another operating system: ${hostnames.join(', ')}.`,
  deployWrongArch: (arch: string, devices: string[]) =>
    `This package is built for ${arch} and cannot run on the architecture of these devices: ${devices.join(', ')}.`,
  stepDetailsJson: 'Step details must be a JSON object',
  stepDetailsInvalid: 'Step details are invalid',
  stepFieldText: (label: string) => `${label} must be text`,
  stepFieldNumber: (label: string) => `${label} must be a number`,
  stepFieldRange: (label: string, min: number, max: number) =>
    `${label} must be a whole number from ${min} to ${max}`,
  stepFieldBoolean: (label: string) => `${label} must be true or false`,
  stepFieldOption: (label: string, values: string[]) => `${label} must be one of: ${values.join(', ')}`,
  stepFieldFile: (label: string) => `${label} must be an uploaded file`,
  stepFieldUrl: (label: string) => `${label} must be a valid http:// or https:// URL`,
  stepHttpNeedsSha256:
    'An http:// Download URL needs the Expected SHA-256 of the file (or use an https:// URL), so the agent runs only the file you meant',
  stepSha256Format: 'Expected SHA-256 must be 64 hexadecimal characters',
  stepExitCodes: 'Success Exit Codes must be whole numbers separated by commas, such as 0,3010,1641',
  stepScriptFileType: 'Script File must be a .ps1 file',
  stepPermissionsLine: (line: number) =>
    `Permissions must have one 'User/Group:Permission' per line (line ${line} does not)`,
  stepRegistryDword: 'A REG_DWORD value must be a whole number from 0 to 4294967295 (decimal or 0x hex)',
  stepRegistryQword: 'A REG_QWORD value must be a whole number from 0 to 2^64-1 (decimal or 0x hex)',
  stepRegistryBinary: 'A REG_BINARY value must be hex bytes such as 01 af 3c',
  importInvalid: 'This is not an Outpost package export.',
  importUnknownFile: (name: string, id: number) =>
    `The package refers to the file "${name}" (id ${id}), which is not in this organization. Upload it first, then import again.`,
  importNoSteps: 'The imported package has no steps. At least one installation step is required',
  // Package owner scope and size (docs/decisions/2026-11-26-package-owner-scope.md)
  tooManySteps: (max: number) =>
    `A package can have at most ${max} steps. Split the installation into several packages.`,
  stepLimitReached: (max: number) => `This package has the maximum of ${max} steps; no more can be added.`,
  tenantWideReadOnly:
    'This package is shared with all sites. Only an administrator with access to all sites can change it; duplicate it to make your own copy.',
  siteOutsideScope: 'You can only create and change packages for the sites you have access to.',
  chooseSite: 'Choose which of your sites this package is for.',
  siteNotFound: 'Site not found',
  deployOutsideSite: (site: string, hostnames: string[]) =>
    `This package is for the site ${site} only and cannot be deployed to: ${hostnames.join(', ')}.`,
  changedSinceDeploy: (name: string | null, date: string) =>
    `Changed since last deployed by ${name ?? 'an unknown user'} on ${date}`,
  tenantWideLabel: 'All sites',
} as const;

// Devices, device actions and agents administration (docs/product/devices.md#device-detail, docs/product/administration.md#agent-cleanup and #agents, word for
// word), plus the server's own messages.
export const deviceMessages = {
  devicesLoad: 'Failed to load devices',
  deviceLoad: 'Failed to load device',
  deviceNotFound: 'Device not found',
  dashboardLoad: 'Failed to load dashboard data',
  softwareLoad: 'Failed to load software',
  servicesLoad: 'Failed to load services',
  agentsLoad: 'Failed to load agents',
  refreshFailed: (kind: string) => `Failed to refresh ${kind} data`,
  actionFailed: (action: string, error?: string) => `Failed to ${action}: ${error || 'Unknown error'}`,
  serviceActionFailed: (action: string) => `Failed to ${action} service`,
  serviceActionDone: (action: string) => `Service ${action} completed successfully`,
  selectDevicesFirst: 'Please select devices first',
  noOptionsSelected: 'No Options Selected',
  noSelection: 'No Selection',
  deleteFailed: 'Delete Failed',
  bulkDeleteFailed: 'Bulk Delete Failed',
  noDevicesFound: 'No devices found',
  noDevicesRegistered: 'No devices have been registered yet.',
  // A user limited to some sites sees only their devices; the organization may have others.
  noDevicesInYourSites:
    'No devices in your sites. Devices at other sites of your organization are not shown to you.',
  // Server-side
  deviceOffline: (hostname: string | null) =>
    `${hostname ?? 'The device'} is offline. It must be connected to do this; try again when it is back online.`,
  agentNoAnswer: (seconds: number) =>
    `The device did not answer within ${seconds} seconds. It may be busy or its connection may be unstable.`,
  agentFailed: 'The agent could not complete the request',
  devicesNotFound: (ids: number[]) => `Device${ids.length === 1 ? '' : 's'} not found: ${ids.join(', ')}`,
  // Install Agent dialog: a customer's words, no build commands
  agentNotPublished: (os: string) =>
    `The Outpost agent for ${os} is not available from this server yet, so the command above cannot install it for now. Ask whoever administers your Outpost server to publish it.`,
  agentNotPublishedDocs:
    'How to publish it is explained in the Outpost documentation, under “Publishing an agent release”.',
} as const;

// Agent cleanup's duplicate rules (SECURITY.md R2-4): each record's outcome, in the preview and
// the result.
export const cleanupMessages = {
  reason: {
    first_proven: 'Kept: enrolled first among the records whose agent has connected',
    first_enrolled: 'Kept: enrolled first; no record of this machine has connected yet',
    duplicate: 'Removed: offline, and its agent has not connected since the kept record last did',
    online: 'Not removed: online now. Check which record is the real machine and delete the other by hand.',
    proved_later: 'Not removed: its agent connected more recently than the kept record. Check it by hand.',
    set_in_review: 'Not removed: another record of this machine needs review',
  },
  previewFailed: 'Failed to preview the cleanup',
  tooManyConfirmed: (max: number) =>
    `A cleanup can name at most ${max} devices; narrow it down and run it again.`,
  needsReview: (sets: number) =>
    `${sets} duplicate set${sets === 1 ? ' needs' : 's need'} review: nothing of ${sets === 1 ? 'it' : 'them'} is removed.`,
} as const;

// Deployments (docs/product/deployments.md#deploy-dialog-rules and #deploy-dialog, #details, word for word), plus the server's own messages.
export const deploymentMessages = {
  selectPackage: 'Please select at least one package to deploy',
  selectDevice: 'Please select at least one device',
  jobNameRequired: 'Please enter a job name',
  devicesOffline: 'Some selected devices are offline or invalid',
  dialogLoad: 'Failed to load packages and devices',
  createFailed: 'Failed to create deployment job',
  partialFailure: (created: number, failed: number, firstError: string) =>
    `${created} deployment(s) created successfully, but ${failed} failed: ${firstError}`,
  totalFailure: (error: string) => `Failed to create deployments: ${error}`,
  listLoad: 'Failed to load deployments',
  detailLoad: 'Failed to load deployment details',
  notFound: 'Deployment not found',
  stepLogsLoad: 'Failed to load step logs',
  stepLogsMore: (shown: number, total: number) => `Showing ${shown} of ${total} attempts`,
  /** where a step log's middle was cut to keep its head and tail (SECURITY.md R2-13) */
  stepLogCut: (bytes: number) => `\n[… ${bytes.toLocaleString('en-US')} bytes of output cut here …]\n`,
  progressUnknownStep: (order: number) => `step ${order} is not a step of this deployment`,
  progressUnknownAttempt: (order: number, attempt: number, attempts: number) =>
    `attempt ${attempt} of step ${order} is beyond its ${attempts} allowed attempt${attempts === 1 ? '' : 's'}`,
  cancelFailed: 'Failed to cancel deployment',
  // Server-side
  deviceDeploymentNotFound: 'Device deployment not found',
  packageNotFound: 'Package not found',
  packageHasNoSteps: 'This package has no steps. Add at least one installation step before deploying it.',
  scheduledInPast: 'The scheduled time is in the past. Choose a date and time from now on.',
  notCancellable: (status: string) =>
    `Only pending or running deployments can be cancelled; this deployment is ${status}.`,
  cancelOutsideScope: 'You can only cancel deployments whose devices are all in your sites.',
  cancelledByUser: (name: string | null) => `Cancelled by ${name ?? 'a user'}`,
  deviceNeverOnline: (hours: number) =>
    `The device did not come online within ${hours} hour${hours === 1 ? '' : 's'}, so the deployment was not run`,
  deviceWentAway: (hours: number) =>
    `The device went offline during the deployment and did not come back within ${hours} hour${hours === 1 ? '' : 's'}`,
  deviceRemoved: 'The device was removed before the deployment finished',
  cancelledOnDevice: 'Cancelled on the device',
  notRunEarlierFailed: 'Not run: an earlier step failed',
  packageForOtherOs: (target: string, device: string) =>
    `Not run: this package targets ${target} and this device runs ${device}`,
  stepForOtherOs: (step: string, device: string) =>
    `Not run: ${step} steps run on Windows only and this device runs ${device}`,
  dialogDevicesLeftOut: (count: number, oses: string[], targets: string[], packageCount: number) =>
    `${count} device${count === 1 ? '' : 's'} left out: ${oses.join(', ')}, ${
      targets.length > 1
        ? `the chosen packages target ${targets.join(' and ')} (deploy them separately)`
        : `${packageCount === 1 ? 'this package targets' : 'the chosen packages target'} ${targets[0]}`
    }`,
  dialogDevicesLeftOutArch: (count: number, archs: string[], built: string[], packageCount: number) =>
    `${count} device${count === 1 ? '' : 's'} left out: ${archs.join(', ')}, ${
      packageCount === 1 ? 'this package is' : 'the chosen packages are'
    } built for ${built.join(' and ')}`,
  agentCannotDeploy: 'The agent could not run the deployment',
  // Devices the job waits for (docs/architecture.md, offline devices)
  noWaitingDevices: 'No device of this deployment is waiting to come back online.',
  deviceNotWaiting: (host: string) =>
    `${host} is not waiting to come back online, so it cannot be ended here.`,
  notWaitingJob: (status: string) =>
    `This deployment is ${status}; only a pending or running one waits for devices.`,
  failedWhileOffline: (name: string | null) => `Failed by ${name ?? 'a user'} while the device was offline`,
  cancelledWhileOffline: (name: string | null) =>
    `Cancelled by ${name ?? 'a user'} while the device was offline`,
} as const;

// Input rules every request and message obeys (input.ts).
export const inputMessages = {
  nulCharacter: 'must not contain a NUL character (\\u0000)',
  illFormedText: 'must be valid Unicode text (it contains an unpaired surrogate such as \\ud800)',
  idInvalid: 'must be a whole number from 1 to 2147483647',
  pageInvalid: 'Page must be a whole number from 1 to 2147483647',
  tooDeep: (depth: number) => `is nested too deeply (at most ${depth} levels)`,
  uploadIncomplete: 'The upload ended before the file was complete. Please try again.',
  uploadMalformed: (reason: string) => `The upload is not a valid multipart form: ${reason}`,
  uploadUnreadable: 'The upload is not a valid multipart form',
  // Refused by the HTTP layer before any route runs (plugins/errors.ts)
  urlInvalid: 'The URL is not valid',
  paramTooLong: 'A path parameter is too long',
  headersTooLarge: 'The request headers (or the URL) are too large',
  requestTimeout: 'The request took too long to arrive',
  requestUnreadable: 'The request could not be read',
} as const;

// Access and device-state rules enforced by the server (docs/product/administration.md#who-may-do-what), plus service control
// limited to what the device reported.
export const accessMessages = {
  deviceNotActionable: (hostname: string | null, status: string) =>
    `${hostname ?? 'The device'} is ${status}. Actions and service control are only possible while a device is online or logged in.`,
  devicesNotActionable: (hostnames: string[]) =>
    `Actions are only possible on devices that are online or logged in. Not available now: ${hostnames.join(', ')}`,
  servicesNotReported: (hostname: string | null) =>
    `${hostname ?? 'The device'} has not reported its services yet. Refresh its services, then try again.`,
  serviceNotFound: (serviceName: string, hostname: string | null) =>
    `Service ${serviceName} was not found on ${hostname ?? 'this device'}`,
  tokenSiteOutsideScope:
    'You can only create enrolment tokens for the sites you have access to. Choose one of your sites.',
} as const;

// Users, sites and audit logs (docs/product/administration.md#users, #sites, docs/product/activity.md#audit-log, word for word), plus the
// server's own messages.
export const adminMessages = {
  // Users (docs/product/administration.md#users)
  emailRequired: 'Email is required',
  selectSiteOrAll: 'Please select at least one site or choose "All Sites"',
  // Sites (docs/product/administration.md#sites)
  siteNameCodeRequired: 'Site name and code are required',
  siteCodeTooLong: 'Site code must be 6 characters or less',
  siteCodeCharacters: 'Site code must contain only uppercase letters and numbers',
  // Loads and saves (docs/product/README.md)
  usersLoad: 'Failed to load users',
  sitesLoad: 'Failed to load sites',
  userSaveFailed: 'Failed to create or update user',
  siteSaveFailed: 'Failed to create or update site',
  deleteFailed: 'Delete Failed',
  bulkDeleteFailed: 'Bulk Delete Failed',
  noSelection: 'No Selection',
  auditLogsLoad: 'Failed to load audit logs',
  auditStatsLoad: 'Failed to load audit stats',
  tenantUsersLoad: 'Failed to load tenant users',
  // Audit logs screen (docs/product/activity.md#audit-log)
  auditTitle: 'Audit Logs',
  auditSubtitle: 'Track and monitor all user actions performed in your organization',
  auditSearchPlaceholder: 'Search logs...',
  auditEmpty: 'No audit logs found',
  auditEmptyFiltered: 'Try adjusting your search filters.',
  auditEmptyUnfiltered: 'User actions will appear here once performed.',
  unknownUser: 'Unknown User',
  noDetails: 'No details',
  // Server-side
  emailInvalid: 'Enter a valid e-mail address',
  emailTaken: (email: string) =>
    `A user with the e-mail address ${email} already exists in this organization`,
  userNotFound: 'User not found',
  usersNotFound: (ids: number[]) => `User${ids.length === 1 ? '' : 's'} not found: ${ids.join(', ')}`,
  sitesNotInTenant: (ids: number[]) =>
    `Site${ids.length === 1 ? '' : 's'} not found in this organization: ${ids.join(', ')}`,
  lastAdminDelete:
    'You are the only administrator of this organization and cannot delete yourself. Make another user an administrator first.',
  ownDelete: 'You cannot delete your own account here. Another administrator can remove you.',
  lastAdminDemote:
    'You are the only administrator of this organization and cannot change your own role. Make another user an administrator first.',
  lastAdminRemoved:
    'This would leave the organization without an administrator. Make another user an administrator first.',
  lastAllSitesAdmin:
    'This would leave the organization without an administrator who has access to all sites, and nobody could grant all-site access again. Give another administrator access to all sites first.',
  emailBound:
    'This user has signed in, so their e-mail address can no longer be changed. To give access to another address, remove this user and invite the new address.',
  siteAccessBeyondOwn:
    'You have access to specific sites only, so you can only manage users whose access lies within your sites, and give them only your sites.',
  siteNotFound: 'Site not found',
  sitesNotFound: (ids: number[]) => `Site${ids.length === 1 ? '' : 's'} not found: ${ids.join(', ')}`,
  siteCodeTaken: (code: string) => `A site with the code ${code} already exists in this organization`,
  timezoneInvalid: 'Choose a timezone from the list',
  siteDeleteConfirm: (name: string, deviceCount: number) =>
    deviceCount === 0
      ? `Are you sure you want to delete the site "${name}"? This action cannot be undone.`
      : `Are you sure you want to delete the site "${name}"? Its ${deviceCount} device${deviceCount === 1 ? '' : 's'} will become unassigned. This action cannot be undone.`,
  sitesDeleted: (sites: number, devices: number) =>
    `Deleted ${sites} site${sites === 1 ? '' : 's'}` +
    (devices === 0 ? '' : `; ${devices} device${devices === 1 ? ' is' : 's are'} now unassigned`),
  usersDeleted: (count: number) => `Deleted ${count} user${count === 1 ? '' : 's'}`,
  dateInvalid: 'Dates must be YYYY-MM-DD or an ISO 8601 date and time',
  dateRangeInverted: 'The start date must not be after the end date',
  accessNotDeclared: (method: string, url: string) =>
    `Route ${method} ${url} made no authorisation decision (declare config.access)`,
} as const;
