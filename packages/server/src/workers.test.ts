import { describe, expect, it } from 'vitest';
import { workerEnv, workerModeProblem } from './workers';

describe('worker mode (WEB_WORKERS)', () => {
  it('needs PostgreSQL and Redis: the workers share the database and pass live updates through Redis', () => {
    expect(workerModeProblem({ databaseUrl: undefined, redisUrl: 'redis://127.0.0.1:6379' })).toMatch(
      /DATABASE_URL/,
    );
    expect(workerModeProblem({ databaseUrl: 'postgres://db/outpost', redisUrl: undefined })).toMatch(
      /REDIS_URL/,
    );
    expect(
      workerModeProblem({ databaseUrl: 'postgres://db/outpost', redisUrl: 'redis://127.0.0.1:6379' }),
    ).toBeNull();
  });

  it('runs the demo in worker 1 only and gives each worker its own metrics port', () => {
    expect(workerEnv(1, { METRICS_PORT: '9100' })).toEqual({ OUTPOST_WORKER: '1', METRICS_PORT: '9100' });
    expect(workerEnv(3, { METRICS_PORT: '9100' })).toEqual({
      OUTPOST_WORKER: '3',
      OUTPOST_DEMO: '0',
      METRICS_PORT: '9102',
    });
    expect(workerEnv(2, {})).toEqual({ OUTPOST_WORKER: '2', OUTPOST_DEMO: '0' });
  });
});
