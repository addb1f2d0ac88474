import { z } from 'zod';
import { IdParam } from './input';

// Enrolment tokens (docs/product/agent-protocol.md#enrolment): a tenant admin creates one in the Install Agent dialog; the
// token itself is shown once, only its hash is kept.

export const CreateEnrollmentTokenBody = z.object({
  name: z.string().trim().max(200, 'Name must be 200 characters or less').optional(),
  site_id: IdParam.nullable().optional(),
  /** ISO timestamp; omitted means the token does not expire */
  expires_at: z.iso
    .datetime({ offset: true, error: 'expires_at must be an ISO date-time' })
    .nullable()
    .optional(),
});
export type CreateEnrollmentTokenBody = z.infer<typeof CreateEnrollmentTokenBody>;

export const ENROLLMENT_TOKEN_STATES = ['active', 'expired', 'revoked'] as const;

export const EnrollmentToken = z.object({
  id: z.number().int(),
  name: z.string().nullable(),
  site_id: z.number().int().nullable(),
  site_name: z.string().nullable(),
  /** the first characters of the token, to recognise it */
  token_prefix: z.string(),
  state: z.enum(ENROLLMENT_TOKEN_STATES),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  use_count: z.number().int(),
  created_by_name: z.string().nullable(),
});
export type EnrollmentToken = z.infer<typeof EnrollmentToken>;

export const CreatedEnrollmentToken = EnrollmentToken.extend({
  /** shown once */
  token: z.string(),
  /** the command that installs and enrols an agent with this token */
  enroll_command: z.string(),
});
export type CreatedEnrollmentToken = z.infer<typeof CreatedEnrollmentToken>;

export const EnrollmentTokenIdParams = z.object({ id: IdParam });
