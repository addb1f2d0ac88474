// Every probe of this machine in one module, which the agent loads when it first collects
// (system-backend.ts): systeminformation and the platform adapters are not loaded before
// (docs/agent.md "Footprint").
export { collectFacts, collectHardware, collectNetwork, collectSessions } from './system';
export { collectServices } from './services';
export { collectSoftware } from './software';
export { collectVolumeMounts } from './volume-mounts';
