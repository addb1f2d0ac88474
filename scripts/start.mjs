#!/usr/bin/env node
// npm start: builds the web app and the server when their builds are missing or stale, then runs
// the compiled server (README "Two commands").
import { buildIfStale, runCompiled, targets } from './build-state.mjs';

buildIfStale(['web', 'server']);
await runCompiled(targets.server.output);
