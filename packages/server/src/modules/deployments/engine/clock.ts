// Time as the engine's parts see it, injected so their tests run without waiting: the current
// time, a one-off timer and a repeating one (each answers how to cancel it).

export type Cancel = () => void;

export type Clock = {
  now(): number;
  after(ms: number, run: () => void): Cancel;
  /** a repeating timer that does not keep the process alive */
  every(ms: number, run: () => void): Cancel;
};

export const systemClock: Clock = {
  now: () => Date.now(),
  after(ms, run) {
    const timer = setTimeout(run, ms);
    return () => clearTimeout(timer);
  },
  every(ms, run) {
    const timer = setInterval(run, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};
