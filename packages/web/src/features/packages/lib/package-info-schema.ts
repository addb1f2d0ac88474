import { z } from 'zod';
import { packageMessages as messages } from '@outpost/contract/messages';
import { Architecture, PACKAGE_NAME_MAX } from '@outpost/contract/packages';
import { AVAILABLE_TARGET_OSES } from '@outpost/contract/targets';

// docs/product/packages.md#builder Package information, #validation validation: the builder's first card.

export const PackageInfoSchema = z.object({
  name: z.string().trim().min(1, messages.packageNameRequired).max(PACKAGE_NAME_MAX),
  description: z.string(),
  target_os: z.enum(AVAILABLE_TARGET_OSES),
  os_version_requirement: z.string().max(100, 'OS version requirement must be 100 characters or less'),
  architecture: Architecture,
  package_version: z.string().trim().min(1, 'Package version is required').max(50),
  is_template: z.boolean(),
  site_id: z.string(),
});
