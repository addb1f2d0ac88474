/**
 * The V8 flags `npm start` runs the server with (docs/decisions/2026-11-28-embedded-memory.md):
 * a young generation of 16 MB semi-spaces. On a machine with a few GB of memory V8 lets each grow
 * to 64 MB, and an idle server kept about 130 MB of young generation resident (269 → 173 MB RSS
 * idle on PostgreSQL, measured). `npm run serve` and the service unit keep V8's own sizing, which
 * suits a server with thousands of agents. bench/footprint.ts measures with the same flags.
 */
export const EMBEDDED_NODE_FLAGS = ['--max-semi-space-size=16'];
