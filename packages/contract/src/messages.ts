// User-facing messages from the spec's error catalogues (core §8, operations §5 and §8),
// word for word, plus the server's own messages. Errors carry the spec's words; logs the details.

export const messages = {
  // Sign-in (core §8)
  loginFailed: (error?: string) => `Login failed: ${error || 'Unknown error'}`,
  loginNetworkError: 'Network error occurred during login. Please check your connection and try again.',
  microsoftSoon: 'Microsoft Sign-In will be available soon! Please use Google Sign-In for now.',
  switchFailed: (error: string) => `Failed to switch organization: ${error}`,
  profileSaved: 'Profile saved',
  // Dashboard and devices (core §8)
  dashboardLoad: 'Failed to load dashboard data',
  devicesLoad: 'Failed to load devices',
  deviceLoad: 'Failed to load device',
  deviceNotFound: 'Device not found',
  httpError: (status: number) => `HTTP error! status: ${status}`,
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
  devLoginDisabled: 'Development sign-in is disabled on this server',
  googleLoginDisabled: 'Google sign-in is not configured on this server',
  tenantNotFound: 'Organization not found',
  adminOnly: 'Administrators only',
  notFound: 'Not found',
  routeNotFound: (method: string, url: string) => `Route ${method} ${url} not found`,
  internalError: 'Internal server error',
  validationFailed: 'Invalid request',
} as const;
