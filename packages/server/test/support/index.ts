// What other packages' tests use of the server's test helpers (`@outpost/server/test-support`):
// the test server and its database, and the agent and portal socket helpers. The fault helpers
// (own PostgreSQL and Redis, the server as a child process) are `@outpost/server/test-support/faults`.
export * from '../harness';
export * from './live';
export * from './terminal';
