import { STEP_CATALOG, STEP_TYPES } from '@outpost/contract/step-catalog';
import type { StepType as StepTypeValue } from '@outpost/contract/step-catalog';
import { stepRunsOn, targetOsLabel } from '@outpost/contract/targets';
import type { AvailableTargetOs } from '@outpost/contract/targets';
import { cn } from '../../../lib/cn';
import { StepTypeIcon } from './step-type-icon';

type Props = {
  stepType: StepTypeValue;
  /** the package's target: step types it cannot run are shown but not offered */
  targetOs: AvailableTargetOs;
  onChoose: (type: StepTypeValue) => void;
};

/** The step editor's type choice: one radio per step type. */
export function StepTypePicker({ stepType, targetOs, onChoose }: Props) {
  return (
    <fieldset>
      <legend className="mb-1.5 text-sm font-medium text-slate-700 dark:text-slate-200">Step Type</legend>
      <div role="radiogroup" aria-label="Step Type" className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        {STEP_TYPES.map((type) => {
          const isChosen = type === stepType;
          // docs/architecture.md "Package targets": a Linux package holds no Windows-only step
          const isOffered = stepRunsOn(type, targetOs);
          return (
            <button
              key={type}
              type="button"
              role="radio"
              aria-checked={isChosen}
              disabled={!isOffered && !isChosen}
              title={isOffered ? undefined : `Runs on Windows only, not on ${targetOsLabel(targetOs)}`}
              onClick={() => onChoose(type)}
              className={cn(
                'flex items-center gap-2.5 rounded-lg border px-2.5 py-2 text-left text-sm transition-colors',
                'disabled:cursor-not-allowed disabled:opacity-50',
                'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
                isChosen
                  ? 'border-indigo-500 bg-indigo-50 ring-1 ring-indigo-500 dark:border-indigo-400 dark:bg-indigo-500/10 dark:ring-indigo-400'
                  : 'border-slate-200 hover:border-slate-300 hover:bg-slate-50 dark:border-slate-700 dark:hover:border-slate-600 dark:hover:bg-slate-800/60',
              )}
            >
              <StepTypeIcon type={type} className="size-7" />
              <span className="font-medium text-slate-800 dark:text-slate-100">
                {STEP_CATALOG[type].label}
                {!isOffered && (
                  <span className="block text-xs font-normal text-slate-500 dark:text-slate-400">
                    Windows only
                  </span>
                )}
              </span>
            </button>
          );
        })}
      </div>
    </fieldset>
  );
}
