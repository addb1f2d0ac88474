import { useState } from 'react';
import { AlertOctagon, Hourglass, Layers, Pause, Play, SkipForward, XCircle } from 'lucide-react';
import type { DeploymentJobDetail } from '@outpost/contract/deployments';
import { isJobActive } from '@outpost/contract/deployments';
import type { Rollout, RolloutWave } from '@outpost/contract/rollouts';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { errorMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { formatDateTime } from '../../../lib/format';
import { useRolloutAction } from '../api/rollout-actions';
import type { RolloutActionInput } from '../api/rollout-actions';
import { useTicker } from '../lib/use-ticker';
import {
  countdown,
  gateLine,
  ROLLOUT_STATE_BADGES,
  rolloutActions,
  WAVE_STATE_BADGES,
  waveBadgeState,
  waveShares,
} from '../lib/rollout-view';
import { AbortRolloutDialog, ResumeRolloutDialog, SkipGateDialog } from './rollout-dialogs';

// The deployment page's rollout card (docs/product/rollouts.md#waves, #gates, #rollout-actions): the rollout's state,
// each wave with its devices, progress and gate, and the actions for users who may cancel the job.

const REASON_TONES = {
  halted: 'bg-red-50 text-red-800 ring-red-200 dark:bg-red-500/10 dark:text-red-300 dark:ring-red-500/30',
  paused:
    'bg-amber-50 text-amber-800 ring-amber-200 dark:bg-amber-500/10 dark:text-amber-300 dark:ring-amber-500/30',
  other:
    'bg-slate-50 text-slate-700 ring-slate-200 dark:bg-slate-800/60 dark:text-slate-300 dark:ring-slate-700',
};

const STEP_TONES: Record<string, string> = {
  passed: 'bg-emerald-500 text-white',
  skipped: 'bg-amber-500 text-white',
  running: 'bg-sky-500 text-white',
  soaking: 'bg-violet-500 text-white',
  halted: 'bg-red-500 text-white',
  aborted: 'bg-slate-400 text-white dark:bg-slate-600',
  waiting:
    'bg-white text-slate-500 ring-1 ring-slate-300 dark:bg-slate-900 dark:text-slate-400 dark:ring-slate-600',
};

function WaveProgress({ wave }: { wave: RolloutWave }) {
  const s = waveShares(wave);
  return (
    <div className="min-w-0">
      <div
        role="progressbar"
        aria-label={`${wave.name} progress`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(s.completed + s.failed)}
        className="flex h-2 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700/70"
      >
        <div
          className="h-full bg-emerald-500 transition-[width] duration-500"
          style={{ width: `${s.completed}%` }}
        />
        <div
          className="h-full bg-red-500 transition-[width] duration-500"
          style={{ width: `${s.failed}%` }}
        />
      </div>
      <p className="mt-1 text-xs text-slate-500 tabular-nums dark:text-slate-400">
        <span className="text-emerald-700 dark:text-emerald-400">{wave.completed_devices} completed</span>
        {' · '}
        <span className={wave.failed_devices > 0 ? 'text-red-600 dark:text-red-400' : undefined}>
          {wave.failed_devices} failed
        </span>
        {' · '}
        {Math.max(0, wave.total_devices - wave.finished_devices)} pending
      </p>
    </div>
  );
}

function WaveTimes({ wave }: { wave: RolloutWave }) {
  const left = wave.state === 'soaking' ? countdown(wave.soak_until) : null;
  return (
    <div className="space-y-0.5 text-xs text-slate-500 sm:text-right dark:text-slate-400">
      {left && (
        <p className="inline-flex items-center gap-1 font-medium text-violet-700 tabular-nums dark:text-violet-300">
          <Hourglass className="size-3.5" aria-hidden />
          Next wave in {left}
        </p>
      )}
      <p>{wave.started_at ? `Started ${formatDateTime(wave.started_at)}` : 'Not started'}</p>
      {wave.passed_at && <p>Passed {formatDateTime(wave.passed_at)}</p>}
    </div>
  );
}

function WaveRow({ wave, isCurrent, isLast }: { wave: RolloutWave; isCurrent: boolean; isLast: boolean }) {
  const state = waveBadgeState(wave);
  const badge = WAVE_STATE_BADGES[state];
  return (
    <li
      className="relative flex gap-3 pb-5 last:pb-0"
      data-testid="rollout-wave-row"
      data-wave-state={state}
      aria-current={isCurrent ? 'step' : undefined}
    >
      {!isLast && (
        <span
          className="absolute top-8 bottom-0 left-[13px] w-px bg-slate-200 dark:bg-slate-700"
          aria-hidden
        />
      )}
      <span
        className={cn(
          'relative flex size-7 shrink-0 items-center justify-center rounded-full text-xs font-semibold',
          STEP_TONES[state],
          isCurrent && 'ring-4 ring-indigo-100 dark:ring-indigo-500/20',
        )}
        aria-hidden
      >
        {wave.index + 1}
      </span>
      <div className="grid min-w-0 flex-1 grid-cols-1 gap-x-6 gap-y-2 sm:grid-cols-[minmax(0,1fr)_14rem]">
        <div className="min-w-0 space-y-2">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="text-sm font-semibold text-slate-900 dark:text-white">{wave.name}</h3>
            <Badge tone={badge.tone} dot>
              {badge.label}
            </Badge>
            <span className="text-xs text-slate-500 dark:text-slate-400">
              {wave.total_devices} device{wave.total_devices === 1 ? '' : 's'}
            </span>
          </div>
          <WaveProgress wave={wave} />
          <p className="text-xs text-slate-500 dark:text-slate-400">{gateLine(wave.gate)}</p>
          {wave.gate_skipped_reason && (
            <p className="text-xs text-amber-800 dark:text-amber-300">
              Gate skipped by {wave.gate_skipped_by_name ?? 'Unknown'}: {wave.gate_skipped_reason}
            </p>
          )}
        </div>
        <WaveTimes wave={wave} />
      </div>
    </li>
  );
}

type Open = null | 'resume' | 'skip-gate' | 'abort';

function RolloutActionsBar({ job, rollout }: { job: DeploymentJobDetail; rollout: Rollout }) {
  const mutation = useRolloutAction(job.id);
  const [open, setOpen] = useState<Open>(null);
  const [error, setError] = useState<string | null>(null);
  const actions = isJobActive(job.status) ? rolloutActions(rollout) : [];
  const current = rollout.waves.find((w) => w.index === rollout.current_wave);
  const run = (input: RolloutActionInput) => {
    setError(null);
    mutation.mutate(input, {
      onSuccess: () => setOpen(null),
      onError: (err) => {
        setOpen(null);
        setError(errorMessage(err, 'The rollout action failed'));
      },
    });
  };
  if (actions.length === 0 && !error) {
    return null;
  }
  const isBusy = mutation.isPending;
  return (
    <div className="space-y-3 border-b border-slate-200 px-5 py-3 dark:border-slate-800">
      {error && <Alert>{error}</Alert>}
      <div className="flex flex-wrap gap-2">
        {actions.includes('pause') && (
          <Button
            icon={<Pause className="size-4" />}
            isLoading={isBusy}
            onClick={() => run({ action: 'pause' })}
          >
            Pause
          </Button>
        )}
        {actions.includes('resume') && (
          <Button variant="primary" icon={<Play className="size-4" />} onClick={() => setOpen('resume')}>
            Resume
          </Button>
        )}
        {actions.includes('skip-gate') && (
          <Button icon={<SkipForward className="size-4" />} onClick={() => setOpen('skip-gate')}>
            Skip Gate
          </Button>
        )}
        {actions.includes('abort') && (
          <Button
            variant="ghost"
            className="text-red-600 dark:text-red-400"
            icon={<XCircle className="size-4" />}
            onClick={() => setOpen('abort')}
          >
            Abort Rollout
          </Button>
        )}
      </div>
      <ResumeRolloutDialog
        isOpen={open === 'resume'}
        isBusy={isBusy}
        packageName={job.package_name}
        hasPackage={job.kind !== 'agent_update'}
        onCancel={() => setOpen(null)}
        onConfirm={(useCurrent) =>
          run({ action: 'resume', body: { use_current_package: useCurrent && job.kind !== 'agent_update' } })
        }
      />
      {open === 'skip-gate' && (
        <SkipGateDialog
          isOpen
          isBusy={isBusy}
          waveName={current?.name ?? 'The current wave'}
          onCancel={() => setOpen(null)}
          onConfirm={(reason) => run({ action: 'skip-gate', body: { reason } })}
        />
      )}
      <AbortRolloutDialog
        isOpen={open === 'abort'}
        isBusy={isBusy}
        onCancel={() => setOpen(null)}
        onConfirm={() => run({ action: 'abort' })}
      />
    </div>
  );
}

export function RolloutCard({ job, rollout }: { job: DeploymentJobDetail; rollout: Rollout }) {
  const isSoaking = rollout.waves.some((w) => w.state === 'soaking');
  useTicker(isSoaking ? 1000 : 30_000);
  const badge = ROLLOUT_STATE_BADGES[rollout.state];
  const reasonTone =
    rollout.state === 'halted'
      ? REASON_TONES.halted
      : rollout.state === 'paused'
        ? REASON_TONES.paused
        : REASON_TONES.other;
  const current = rollout.waves.find((w) => w.index === rollout.current_wave);
  return (
    <Card data-testid="rollout-card" aria-label="Rollout">
      <CardHeader
        title={
          <span className="inline-flex items-center gap-2">
            <Layers className="size-4 text-indigo-500" aria-hidden />
            Rollout
            <span data-testid="rollout-state">
              <Badge tone={badge.tone} dot>
                {badge.label}
              </Badge>
            </span>
          </span>
        }
        description={`${rollout.mode === 'percent' ? 'By percentage' : 'By groups'} · ${rollout.waves.length} waves${
          current && rollout.state !== 'completed' ? ` · now ${current.name}` : ''
        }`}
      />
      {rollout.state_reason && (
        <div
          className={cn(
            'mx-5 mt-4 flex gap-2 rounded-lg px-3.5 py-2.5 text-sm ring-1 ring-inset',
            reasonTone,
          )}
          data-testid="rollout-reason"
        >
          <AlertOctagon className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span className="min-w-0 break-words">
            {rollout.state_reason}
            {rollout.state_changed_at && (
              <span className="opacity-75"> · {formatDateTime(rollout.state_changed_at)}</span>
            )}
          </span>
        </div>
      )}
      <RolloutActionsBar job={job} rollout={rollout} />
      <ol className="px-5 py-4" aria-label="Waves">
        {rollout.waves.map((w, i) => (
          <WaveRow
            key={w.index}
            wave={w}
            isCurrent={w.index === rollout.current_wave && rollout.state !== 'completed'}
            isLast={i === rollout.waves.length - 1}
          />
        ))}
      </ol>
    </Card>
  );
}
