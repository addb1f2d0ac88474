import type { DeploymentCreateBody, DeploymentJob } from '@outpost/contract/deployments';
import { api } from '../../../lib/api-client';

export const createDeployment = (body: DeploymentCreateBody) =>
  api.post<DeploymentJob>('/customer/deployments', body);
