// The Drizzle schema: one file per table (STYLE.md), gathered here for the client and drizzle-kit.
export * from './tenants';
export * from './sites';
export * from './users';
export * from './identities';
export * from './sessions';
export * from './audit-logs';
export * from './enrollment-tokens';
export * from './devices';
export * from './device-software';
export * from './activity-events';
export * from './device-activity';
export * from './device-commands';
export * from './files';
export * from './packages';
export * from './deployments';
export * from './device-counts';
