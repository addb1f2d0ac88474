import { packageMessages as messages } from '@outpost/contract/messages';
import type { PackageDetail } from '@outpost/contract/packages';
import type { Executor } from '../../lib/db';
import { notFound } from '../../lib/errors';
import type { RequestContext } from '../../lib/context';
import { assertMayChange } from './package-access';
import { findPackage, lastDeployment, listSteps, toStep, toSummary } from './packages.queries';
import type { PackageRow } from './packages.queries';

// Loading a package for the packages services: 404 when the caller cannot see it, locked for a change.

export async function loadOr404(
  ex: Executor,
  ctx: RequestContext,
  id: number,
  lock = false,
): Promise<PackageRow> {
  const row = await findPackage(ex, ctx, id, { lock });
  if (!row) {
    throw notFound(messages.packageNotFound, 'PACKAGE_NOT_FOUND');
  }
  return row;
}

/** A package the caller may change, locked until the transaction ends. */
export async function loadForChange(tx: Executor, ctx: RequestContext, id: number): Promise<PackageRow> {
  const row = await loadOr404(tx, ctx, id, true);
  assertMayChange(ctx, row);
  return row;
}

export async function detailOf(ex: Executor, row: PackageRow): Promise<PackageDetail> {
  const steps = await listSteps(ex, row.id);
  return { ...toSummary(row, steps.length, await lastDeployment(ex, row.id)), steps: steps.map(toStep) };
}
