import agentPackage from '../package.json';

// The single executable's build (scripts/build-agent-exe.mjs) compiles its --version in as this
// constant; run from source (tsx, tests) the agent reports the version in its package.json.
declare const __OUTPOST_AGENT_VERSION__: string | undefined;

export const AGENT_VERSION: string =
  typeof __OUTPOST_AGENT_VERSION__ === 'string' ? __OUTPOST_AGENT_VERSION__ : agentPackage.version;
