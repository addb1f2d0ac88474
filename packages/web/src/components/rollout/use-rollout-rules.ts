import { useState } from 'react';
import { CHOOSE_GROUP, defaultRolloutValues, rolloutPlan, rolloutProblems } from './rollout-form';
import type { RolloutFormValues } from './rollout-form';

/**
 * The rollout section's rules (docs/product/rollouts.md#the-rollout-section-of-the-deploy-dialog): they come after the
 * dialog's own; an empty group wave is said once the user tries to send, a wrong number at once.
 * `showRules` also shows the dialog's own rules (`showDialogRules`).
 */
export function useRolloutRules(values: RolloutFormValues | undefined, showDialogRules: () => void) {
  const [isTried, setIsTried] = useState(false);
  const problems = rolloutProblems(values ?? defaultRolloutValues());
  return {
    problems,
    isBroken: problems.length > 0,
    shown: isTried ? problems : problems.filter((p) => p.message !== CHOOSE_GROUP),
    showRules: () => {
      showDialogRules();
      setIsTried(true);
    },
  };
}

/** What the section adds to each job's create body: the plan (absent while off) and the windows flag. */
export function rolloutFields(values: RolloutFormValues | undefined) {
  const v = values ?? defaultRolloutValues();
  return { rollout: rolloutPlan(v), onlyInWindows: v.onlyInWindows };
}
