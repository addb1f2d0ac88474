#!/usr/bin/env node
// npm start: builds the web app and the server when their builds are missing or stale, then runs
// the compiled server (README.md#two-commands).
import { buildIfStale, runCompiled, targets } from './build-state.mjs';
import { EMBEDDED_NODE_FLAGS } from './node-flags.mjs';

buildIfStale(['web', 'server']);
// The demo signs in without an identity provider: dev sign-in is turned on here, and only here
// (`npm run serve`, the service unit and `npm run cluster` never offer it unless the operator sets
// OUTPOST_ALLOW_DEV_LOGIN=1 themselves). The server's banner says it is on. SECURITY.md R2-7.
process.env.OUTPOST_ALLOW_DEV_LOGIN ??= '1';
await runCompiled(targets.server.output, EMBEDDED_NODE_FLAGS);
