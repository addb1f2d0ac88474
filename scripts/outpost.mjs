#!/usr/bin/env node
// npm run outpost -- <command>: the admin CLI, compiled with the server (built first when stale).
import { buildIfStale, runCompiled } from './build-state.mjs';

buildIfStale(['server']);
await runCompiled('packages/server/dist/cli.js');
