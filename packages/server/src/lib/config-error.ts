/** A setting the server refuses at start; its message names the fix. */
export class ConfigError extends Error {}
