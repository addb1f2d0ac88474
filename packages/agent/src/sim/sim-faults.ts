// The monitoring faults a simulated fleet can be given (sim-monitor.ts), each the share of devices
// (0 to 1) that have it, drawn per device from the seed: `npm run sim -- --faults hotCpu=0.1,…`
// and the demo's OUTPOST_DEMO_FAULTS take the same text.

export const SIM_FAULT_NAMES = [
  /** CPU runs at 92–99 % */
  'hotCpu',
  /** the first volume fills up, 1 % of the disk an hour */
  'fillingDisk',
  /** a service is stopped (Spooler on Windows, com.apple.mDNSResponder on macOS) */
  'stoppedService',
  /** every script check exits with 2 */
  'failingScripts',
  /** a reboot is pending */
  'rebootPending',
] as const;
export type SimFaultName = (typeof SIM_FAULT_NAMES)[number];

export type SimFaults = Record<SimFaultName, number> & {
  /** checks (by id) that fail on every device */
  failingCheckIds: number[];
};

export const NO_FAULTS: SimFaults = {
  hotCpu: 0,
  fillingDisk: 0,
  stoppedService: 0,
  failingScripts: 0,
  rebootPending: 0,
  failingCheckIds: [],
};

/** The demo's mix: a few devices with each problem, so every alert has examples. */
export const DEMO_FAULTS: SimFaults = {
  hotCpu: 0.04,
  fillingDisk: 0.05,
  stoppedService: 0.05,
  failingScripts: 0.03,
  rebootPending: 0.08,
  failingCheckIds: [],
};

/**
 * "hotCpu=0.1,fillingDisk=0.05,failingCheck=12" → faults (unnamed ones from `base`); "none" is no
 * fault at all. A wrong name or share throws with what is allowed.
 */
export function parseSimFaults(text: string, base: SimFaults = NO_FAULTS): SimFaults {
  const faults: SimFaults = { ...base, failingCheckIds: [...base.failingCheckIds] };
  if (text.trim() === 'none') {
    return { ...NO_FAULTS, failingCheckIds: [] };
  }
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const [name, value] = part.split('=').map((s) => s.trim());
    const n = Number(value);
    if (name === 'failingCheck' && Number.isInteger(n) && n > 0) {
      faults.failingCheckIds.push(n);
      continue;
    }
    if (!SIM_FAULT_NAMES.includes(name as SimFaultName) || !(n >= 0 && n <= 1)) {
      throw new Error(
        `Faults are name=share (0 to 1) among ${SIM_FAULT_NAMES.join(', ')}, or failingCheck=<check id>; not "${part}"`,
      );
    }
    faults[name as SimFaultName] = n;
  }
  return faults;
}
