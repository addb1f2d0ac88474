// The one reading of `Authorization: Bearer <token>`, for the portal session, the agent's secret
// (socket and file downloads) and the metrics token. The scheme is matched as sent ("Bearer ",
// case and single space included), as every caller did before it was shared.

/** The token of a Bearer authorization header; '' when absent, empty or of another scheme. */
export function bearerToken(header: string | undefined): string {
  return header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
}
