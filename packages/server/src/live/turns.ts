// Turns for the agents refused while the hello queue is long (gate.ts, agent-socket.routes.ts;
// docs/decisions/2026-11-28-busy-turns.md). A refused agent used to be told to come back in 2 s
// whatever the queue: after a restart 50,000 agents retried thousands of times a second, and
// their retries cost more CPU than the hellos (bench/RESULTS.md, 2026-11-28). Now each refused
// agent is given the next free turn at the rate hellos are being recorded here, so a crowd comes
// back spread over the time the server needs for it; the queue's bound is that rate's 10 s.

export type Turns = {
  /** a hello was recorded (the rate's measure) */
  passed(): void;
  /** hellos recorded a second, measured; the initial rate until a second has been measured */
  readonly rate: number;
  /** seconds until the next free turn, which this caller takes */
  next(): number;
};

export type TurnsOptions = {
  /** the rate assumed before any measurement (the upgrade budget's, or a guess) */
  initialRate: number;
  /** the earliest a refused agent is told to come back */
  minSeconds: number;
  /** the latest: an agent is never told to stay away longer */
  maxSeconds: number;
  now?: () => number;
};

/** The measured rate never falls below this, so a queue that stalled still hands out turns. */
const MIN_RATE = 5;

export function createTurns(options: TurnsOptions): Turns {
  const now = options.now ?? Date.now;
  let rate = Math.max(MIN_RATE, options.initialRate);
  let windowStart = now();
  let passedInWindow = 0;
  let nextTurnAt = 0;

  // Once a second or more has gone by, its count moves the rate halfway towards what it measured.
  const measure = (at: number) => {
    const elapsed = at - windowStart;
    if (elapsed < 1000) {
      return;
    }
    rate = Math.max(MIN_RATE, (rate + (passedInWindow * 1000) / elapsed) / 2);
    windowStart = at;
    passedInWindow = 0;
  };

  return {
    passed() {
      const at = now();
      measure(at);
      passedInWindow += 1;
    },
    get rate() {
      measure(now());
      return rate;
    },
    next() {
      const at = now();
      measure(at);
      const earliest = at + options.minSeconds * 1000;
      const latest = at + options.maxSeconds * 1000;
      nextTurnAt = Math.min(latest, Math.max(nextTurnAt, earliest) + 1000 / rate);
      return Math.ceil((nextTurnAt - at) / 1000);
    },
  };
}
