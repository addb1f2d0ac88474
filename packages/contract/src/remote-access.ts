import { z } from 'zod';
import { Role } from './auth';

// Remote access (docs/product/remote-access.md): the remote terminal and file transfer, and what a
// tenant allows of them. The server enforces the settings on every request; the agent is told
// them (`remote_policy`, agent-remote.ts) and refuses on its own what the tenant turned off.

export const REMOTE_KINDS = ['terminal', 'files'] as const;
export type RemoteKind = (typeof REMOTE_KINDS)[number];

export const REMOTE_LIMITS = {
  idleMinutesMin: 1,
  idleMinutesMax: 240,
  sessionMinutesMin: 5,
  sessionMinutesMax: 24 * 60,
  /** bytes per second in each direction of a terminal session */
  rateMin: 16 * 1024,
  rateMax: 16 * 1024 * 1024,
  /** the largest file a transfer moves */
  fileBytesMax: 8 * 1024 * 1024 * 1024,
  fileBytesMin: 1024 * 1024,
} as const;

export const RemoteAccessSettings = z
  .object({
    terminal_enabled: z.boolean(),
    files_enabled: z.boolean(),
    /** the roles that may open a terminal or move files (always within their sites) */
    allowed_roles: z.array(Role).min(1, 'Choose at least one role').max(2),
    /** ask the user signed in on the device before a terminal session starts */
    consent_required: z.boolean(),
    /** show a banner on the device while a session runs */
    show_banner: z.boolean(),
    idle_timeout_minutes: z
      .number()
      .int()
      .min(REMOTE_LIMITS.idleMinutesMin)
      .max(REMOTE_LIMITS.idleMinutesMax),
    max_session_minutes: z
      .number()
      .int()
      .min(REMOTE_LIMITS.sessionMinutesMin)
      .max(REMOTE_LIMITS.sessionMinutesMax),
    max_bytes_per_second: z.number().int().min(REMOTE_LIMITS.rateMin).max(REMOTE_LIMITS.rateMax),
    max_file_bytes: z.number().int().min(REMOTE_LIMITS.fileBytesMin).max(REMOTE_LIMITS.fileBytesMax),
  })
  .strict();
export type RemoteAccessSettings = z.infer<typeof RemoteAccessSettings>;

/** A tenant that never saved its settings has these. */
export const DEFAULT_REMOTE_ACCESS: RemoteAccessSettings = {
  terminal_enabled: true,
  files_enabled: true,
  allowed_roles: ['tenant_admin'],
  consent_required: false,
  show_banner: true,
  idle_timeout_minutes: 15,
  max_session_minutes: 240,
  max_bytes_per_second: 1024 * 1024,
  max_file_bytes: 2 * 1024 * 1024 * 1024,
};

/** PUT /customer/settings/remote-access: any subset; the rest keeps its value. */
export const RemoteAccessUpdate = RemoteAccessSettings.partial().strict();
export type RemoteAccessUpdate = z.infer<typeof RemoteAccessUpdate>;

/** GET /customer/settings/remote-access: the settings, and what the caller may do with them. */
export type RemoteAccessView = RemoteAccessSettings & {
  can_edit: boolean;
  /** the caller's role is allowed (terminal and files still need their switch on) */
  caller_allowed: boolean;
};

export const remoteMessages = {
  terminalOff: 'The remote terminal is turned off for this organisation',
  filesOff: 'File transfer is turned off for this organisation',
  roleNotAllowed: 'Your role may not use remote access on devices',
  allSitesOnly: 'Only administrators of all sites may change remote access settings',
  deviceOffline: 'The device is not connected',
  agentTooOld: 'The device\u2019s agent does not support remote access yet: update the agent',
} as const;
