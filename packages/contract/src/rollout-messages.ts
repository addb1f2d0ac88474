// The words of safe rollouts (docs/product/rollouts.md): plan rules, automatic halts, actions.

const pct = (n: number) => `${Math.round(n * 10) / 10} %`;

export const rolloutMessages = {
  percentRequired: 'Each wave of a percent rollout needs a percent',
  percentsMustRise: 'Wave percents are cumulative and must rise from one wave to the next (e.g. 5, 25, 100)',
  lastPercent: 'The last wave must reach 100 %',
  groupRequired: 'Each wave of a group rollout needs a group',
  groupTwice: 'A group can be the wave of a rollout only once',
  tooFewDevices: (waves: number) => `A rollout in ${waves} waves needs at least ${waves} devices`,
  tooManyDevices: (max: number) => `A rollout may reach at most ${max.toLocaleString('en')} devices`,
  groupsHaveNoDevices: 'None of the wave groups has a device you can deploy to',
  remainingWave: 'Remaining devices',
  waveName: (index: number, percent: number) => `Wave ${index + 1} (${percent} %)`,
  halted: (wave: number, failed: number, total: number, allowed: number) =>
    `Wave ${wave + 1} halted: ${failed} of ${total} devices failed (${pct((failed / Math.max(1, total)) * 100)}), above the ${allowed} % allowed`,
  heldByHalt: (wave: number) => `Held: the rollout halted at wave ${wave + 1}`,
  heldByPause: (name: string) => `Paused by ${name}`,
  waitingForWave: (wave: number) => `Waiting for wave ${wave + 1}`,
  paused: (name: string) => `Paused by ${name}`,
  aborted: (name: string) => `Aborted by ${name}`,
  resumed: (name: string) => `Resumed by ${name}`,
  gateSkipped: (wave: number, name: string, reason: string) =>
    `Gate of wave ${wave + 1} skipped by ${name}: ${reason}`,
  withdrawn: 'Withdrawn: the rollout halted before the device took the work',
  noRollout: 'This deployment has no rollout',
  notRunning: (state: string) => `The rollout is ${state}; only a running rollout can be paused`,
  notResumable: (state: string) => `The rollout is ${state}; only a paused or halted rollout can be resumed`,
  notAbortable: (state: string) => `The rollout is ${state} and can no longer be aborted`,
  notSkippable: (state: string) => `The rollout is ${state}; its gates can no longer be skipped`,
  jobEnded: 'The deployment has ended',
};
