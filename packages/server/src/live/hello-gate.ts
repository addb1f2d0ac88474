// Admission by hellos in flight (ARCHITECTURE §13 "Fleet scale"). After a restart every agent
// returns at once. At most `limit` hellos are recorded at once (optionally a welcomed agent keeps
// its place until its first inventory is stored, AGENT_HELLO_HOLD_MS); further hellos wait their
// turn in arrival order, on their open sockets, so a server slow to start (or busy) welcomes the
// fleet at the pace it records hellos rather than in one burst once it catches up. The upgrade
// budget (rate-limit.ts `admit`) still bounds how fast sockets open; `isBusy` lets the upgrade
// refuse early, before any lookup, while the queue is long.

export type HelloGate = {
  /** Resolves with the function that gives the place back (calling it twice gives it back once). */
  enter(): Promise<() => void>;
  /** hellos waiting for a place */
  readonly waiting: number;
  readonly inFlight: number;
  /** more hellos wait than `backlogLimit`: new upgrades are refused for now */
  readonly isBusy: boolean;
};

export function createHelloGate(limit: number, backlogLimit = limit * 8): HelloGate {
  let inFlight = 0;
  const queue: (() => void)[] = [];
  const leave = () => {
    const next = queue.shift();
    if (next) {
      next(); // the place passes to the next hello in line
    } else {
      inFlight -= 1;
    }
  };
  const place = () => {
    let hasLeft = false;
    return () => {
      if (!hasLeft) {
        hasLeft = true;
        leave();
      }
    };
  };
  return {
    enter() {
      if (inFlight < limit) {
        inFlight += 1;
        return Promise.resolve(place());
      }
      return new Promise((resolve) => queue.push(() => resolve(place())));
    },
    get waiting() {
      return queue.length;
    },
    get inFlight() {
      return inFlight;
    },
    get isBusy() {
      return queue.length >= backlogLimit;
    },
  };
}
