import { useQueryClient } from '@tanstack/react-query';
import type {
  PackageCreateBody,
  PackageDetail,
  PackageStep,
  PackageUpdateBody,
} from '@outpost/contract/packages';
import type { StepType } from '@outpost/contract/step-catalog';
import type { StepConditionInput } from '@outpost/contract/step-conditions';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { packagesKey } from './get-packages';

// docs/product/packages.md#calls — the package and step calls the builder's save flow makes, one at a time.

export type StepPayload = {
  step_name: string;
  step_type: StepType;
  step_details: Record<string, unknown>;
  fail_deployment_on_error: boolean;
  timeout_seconds: number;
  retry_count: number;
  conditions?: StepConditionInput[];
};

// docs/product/packages.md#fields: step_details is sent as a JSON string.
const stepBody = (step: StepPayload) => ({ ...step, step_details: JSON.stringify(step.step_details) });

export const createPackage = (body: PackageCreateBody) =>
  api.post<PackageDetail>('/customer/deployment-packages', body);

export const updatePackage = (id: number, body: PackageUpdateBody) =>
  api.put<PackageDetail>(`/customer/deployment-packages/${id}`, body);

export const addStep = (packageId: number, step: StepPayload) =>
  api.post<PackageStep>(`/customer/deployment-packages/${packageId}/steps`, stepBody(step));

export const updateStep = (packageId: number, stepId: number, step: StepPayload) =>
  api.put<PackageStep>(`/customer/deployment-packages/${packageId}/steps/${stepId}`, stepBody(step));

export const deleteStep = (packageId: number, stepId: number) =>
  api.delete<{ message: string }>(`/customer/deployment-packages/${packageId}/steps/${stepId}`);

export const reorderSteps = (packageId: number, orderedIds: number[]) =>
  api.put<PackageStep[]>(`/customer/deployment-packages/${packageId}/steps/reorder`, {
    stepOrders: orderedIds.map((id, index) => ({ id, step_order: index + 1 })),
  });

/** Drops the cached package lists and details of this tenant after the builder changed them. */
export function useInvalidatePackages() {
  const queryClient = useQueryClient();
  const user = useUser();
  return () => queryClient.invalidateQueries({ queryKey: packagesKey(user.tenant_id) });
}
