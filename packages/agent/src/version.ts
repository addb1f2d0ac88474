export const AGENT_VERSION = '1.0.0';
