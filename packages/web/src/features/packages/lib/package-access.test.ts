import { describe, expect, it } from 'vitest';
import { MAX_STEPS_PER_PACKAGE } from '@outpost/contract/limits';
import { packageMessages } from '@outpost/contract/messages';
import type { PackageDetail } from '@outpost/contract/packages';
import { EMPTY_INFO, addStepBlocker, packageBlockers, packageBody } from './builder-state';
import { canChangePackage } from './package-access';
import { savePackage } from './save-flow';
import type { SaveDeps } from './save-flow';

// SECURITY.md R2-5 and R2-6 in the builder: who may change a package, the owner site sent with
// it, and the step limit.

describe('package owner scope in the builder (R2-5)', () => {
  const limited = { site_access_type: 'specific' } as const;
  const everywhere = { site_access_type: 'all' } as const;

  it('a shared package is read-only to a site-limited member; their sites’ packages are not', () => {
    expect(canChangePackage(limited, { site_id: null })).toBe(false);
    expect(canChangePackage(limited, { site_id: 4 })).toBe(true);
    expect(canChangePackage(everywhere, { site_id: null })).toBe(true);
  });

  it('a site-limited member must choose a site before saving', () => {
    const info = { ...EMPTY_INFO, name: 'App' };
    expect(packageBlockers(info, [1], { mustChooseSite: true })).toEqual([packageMessages.chooseSite]);
    expect(packageBlockers({ ...info, site_id: '4' }, [1], { mustChooseSite: true })).toEqual([]);
    expect(packageBlockers(info, [1])).toEqual([]);
  });

  it('sends the site as a number, or null for all sites', async () => {
    expect(packageBody({ ...EMPTY_INFO, site_id: '4' }).site_id).toBe(4);
    expect(packageBody(EMPTY_INFO).site_id).toBeNull();
    const bodies: unknown[] = [];
    const deps = {
      createPackage: (body) => {
        bodies.push(body);
        return Promise.resolve({ id: 1 } as PackageDetail);
      },
    } as Pick<SaveDeps, 'createPackage'> as SaveDeps;
    await savePackage(deps, {
      packageId: null,
      info: { ...EMPTY_INFO, name: 'App', site_id: '7' },
      steps: [],
    });
    expect(bodies).toEqual([expect.objectContaining({ name: 'App', site_id: 7, target_os: 'windows' })]);
  });
});

describe('the step limit in the builder (R2-6)', () => {
  it('offers no step beyond the limit and says why', () => {
    expect(addStepBlocker(MAX_STEPS_PER_PACKAGE - 1)).toBeNull();
    expect(addStepBlocker(MAX_STEPS_PER_PACKAGE)).toBe(
      packageMessages.stepLimitReached(MAX_STEPS_PER_PACKAGE),
    );
    const tooMany = Array.from({ length: MAX_STEPS_PER_PACKAGE + 1 });
    expect(packageBlockers({ name: 'App' }, tooMany)).toEqual([
      packageMessages.tooManySteps(MAX_STEPS_PER_PACKAGE),
    ]);
  });
});
