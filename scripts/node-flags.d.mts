// Types of scripts/node-flags.mjs for the TypeScript benchmarks that use it.
export const EMBEDDED_NODE_FLAGS: string[];
