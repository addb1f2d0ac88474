// Admission by work in flight (docs/decisions/2026-11-26-fleet-scale.md): at most `limit` callers at once,
// the others wait their turn in arrival order. After a restart every agent returns at once; two
// gates keep that from arriving as one burst of work:
// - hellos (agent-hub.ts): at most AGENT_HELLOS_IN_FLIGHT recorded at once (optionally a welcomed
//   agent keeps its place until its first inventory is stored, AGENT_HELLO_HOLD_MS); the others
//   wait on their open sockets, so a server slow to start (or busy) welcomes the fleet at the pace
//   it records hellos rather than in one burst once it catches up; `isBusy` lets the upgrade
//   refuse early, before any lookup, while that queue is long;
// - credential lookups (agent-socket.routes.ts): a few at a time, so thousands of upgrades
//   arriving together wait in memory instead of in the database pool's queue, where every hello
//   and inventory waited behind them.

export type Gate = {
  /** Resolves with the function that gives the place back (calling it twice gives it back once). */
  enter(): Promise<() => void>;
  /** callers waiting for a place */
  readonly waiting: number;
  readonly inFlight: number;
  /** at least `backlogLimit` callers wait */
  readonly isBusy: boolean;
};

/** The backlog's bound: a number, or read at each question (a bound that follows a measured rate). */
export type BacklogLimit = number | (() => number);

export function createGate(limit: number, backlogLimit: BacklogLimit = limit * 8): Gate {
  const bound = typeof backlogLimit === 'number' ? () => backlogLimit : backlogLimit;
  let inFlight = 0;
  const queue: (() => void)[] = [];
  const leave = () => {
    const next = queue.shift();
    if (next) {
      next(); // the place passes to the next caller in line
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
      return queue.length >= bound();
    },
  };
}
