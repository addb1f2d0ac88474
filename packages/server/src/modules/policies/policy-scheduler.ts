import type { FastifyBaseLogger } from 'fastify';
import { createPeriodic } from '../../lib/periodic';
import type { Periodic } from '../../lib/periodic';
import type { Clock } from '../deployments/engine/clock';
import type { PolicyRunner } from './policy-runner';

// The policies' timer, one per instance (docs/product/device-sets.md#automation-policies): a pass
// every interval at the clock's time; one pass at a time (a tick during a pass waits for it).
// app.ts starts it once listening and stops it before the database closes.

export type PolicyScheduler = Periodic;

export function createPolicyScheduler(deps: {
  runner: PolicyRunner;
  clock: Clock;
  intervalMs: number;
  log: FastifyBaseLogger;
}): PolicyScheduler {
  return createPeriodic({
    name: 'policy scheduler',
    pass: (now) => deps.runner.pass(now),
    clock: deps.clock,
    intervalMs: deps.intervalMs,
    log: deps.log,
  });
}
