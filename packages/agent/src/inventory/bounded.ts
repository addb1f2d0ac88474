// Every inventory probe has a bound: on some Windows machines systeminformation's
// networkGatewayDefault() never settles (no default gateway, no PowerShell), and one probe that
// never answers must not hold back the parts that can be reported (docs/agent-windows.md).

/** How long one probe (one systeminformation call, one command) may take: a refresh the portal
 * asks for answers within its wait (AGENT_ANSWER_WAIT_MS) even when a probe never does. */
export const PROBE_TIMEOUT_MS = 8_000;
/** How long one inventory part (hardware, network, software, services) may take. */
export const PART_TIMEOUT_MS = 60_000;

export class ProbeTimeout extends Error {
  constructor(what: string, ms: number) {
    super(`${what} did not answer within ${Math.round(ms / 1000)} s`);
    this.name = 'ProbeTimeout';
  }
}

/** The probe's answer, or a ProbeTimeout after `ms` (the probe itself is left to finish). */
export function bounded<T>(probe: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProbeTimeout(what, ms)), ms);
    timer.unref();
  });
  return Promise.race([probe, timeout]).finally(() => clearTimeout(timer));
}

/** The probe's answer, or `fallback` when it fails or does not answer within `ms`. */
export function boundedOr<T>(probe: Promise<T>, ms: number, fallback: T): Promise<T> {
  return bounded(probe, ms, 'probe').catch(() => fallback);
}
