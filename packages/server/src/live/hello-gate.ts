// Admission by hellos in flight (ARCHITECTURE §13 "Fleet scale"). After a restart every agent
// returns at once, and what a return costs is the server's own work: the hello's transaction,
// then the agent's first inventory. At most `limit` agents are in that stretch at once; further
// hellos wait their turn in arrival order, on their open sockets, so the fleet is welcomed at the
// pace the server stores returns rather than in bursts. The upgrade budget (rate-limit.ts `admit`)
// still bounds how fast sockets open; `isBusy` lets the upgrade refuse early when the queue is
// already longer than the server works through in a few seconds.

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
