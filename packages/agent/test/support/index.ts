// What other packages' tests use of the agent's test helpers (`@outpost/agent/test-support`).
export * from './steps';
export * from './deployment';
