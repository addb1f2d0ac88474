// docs/product/README.md#conventions — business constants and limits, one source for all.

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const DEFAULT_PAGE_SIZE = 20;
export const SOFTWARE_PAGE_SIZE = 50;
export const AUDIT_PAGE_SIZE = 50;
export const ACTIVITY_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;
export const PAGER_MAX_NUMBERS = 5;

export const DEPLOY_DIALOG_LOAD_LIMIT = 100;

/**
 * Steps one package may have: bounds the work of one import, duplicate or reorder request and
 * the size of every deployment built from the package (SECURITY.md R2-6).
 */
export const MAX_STEPS_PER_PACKAGE = 200;

export const TOAST_EXIT_MS = 300;
export const TOAST_DURATION_MS = { info: 4000, warning: 4000, success: 5000, error: 6000 } as const;
export const LIVE_NOTIFICATIONS_KEPT = 10;
export const LIVE_NOTIFICATION_EXPIRY_MS = 5000;

export const WS_PING_INTERVAL_MS = 30_000;
/** Largest websocket frame either socket accepts; a larger one is closed with 1009. */
export const WS_MAX_PAYLOAD_BYTES = 1024 * 1024;
export const WS_RECONNECT_DELAYS_MS = [2000, 4000, 8000] as const;
export const WS_NO_RETRY_CLOSE_CODES = [1006, 1011] as const;
export const WS_CONNECT_DELAY_MS = 1000;

export const ACTIVITY_WINDOW_DAYS = 7;
export const ACTIVITY_CHART_SLOTS = 12;
export const AUDIT_STATS_DEFAULT_DAYS = 30;

export const DASHBOARD_FALLBACK_RUNNING_DEPLOYMENTS = 2;
export const DASHBOARD_FALLBACK_PACKAGES = 8;

export const STORAGE_WARN_PERCENT = 75;
export const STORAGE_CRITICAL_PERCENT = 90;

export const SESSION_ID_SHOWN_CHARS = 8;

export const QUERY_RETRY_COUNT = 3;
export const QUERY_RETRY_MAX_DELAY_MS = 30_000;
export const QUERY_GC_TIME_MS = 5 * 60_000;

export const SESSION_TOKEN_TTL_SECONDS = 12 * 60 * 60;

// Local storage keys (docs/product/sign-in.md#shell).
export const STORAGE_KEYS = {
  token: 'outpost.token',
  darkMode: 'outpost.darkMode',
  sidebarMinimized: 'outpost.sidebarMinimized',
} as const;

// Step logs (SECURITY.md R2-13): each stream (stdout, stderr) of one step attempt keeps at most
// this many characters, its first and last halves; what lies between is cut and the log says how
// many bytes. The logs endpoint answers a device's attempts a page at a time.
export const STEP_LOG_MAX_CHARS = 256 * 1024;
export const STEP_LOG_PAGE_SIZE = 10;
export const STEP_LOG_MAX_PAGE_SIZE = 20;

// Storage quota per organisation (SECURITY.md R2-14): the default when the operator set none for
// the tenant (the server's TENANT_STORAGE_QUOTA_BYTES overrides it for the whole instance).
export const DEFAULT_TENANT_STORAGE_QUOTA_BYTES = 10 * 1024 ** 3;
