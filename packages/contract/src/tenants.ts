import { z } from 'zod';

export const DEFAULT_PLAN = 'Standard';

export const TenantSummary = z.object({
  tenant_name: z.string(),
  plan: z.string(),
  max_agents: z.number().int().nullable(),
  license_expiry: z.string().nullable(),
});
export type TenantSummary = z.infer<typeof TenantSummary>;
