#!/usr/bin/env node
// npm run serve: runs the already built server, nothing else (what a container or a service unit
// runs after `npm run build`). The environment is the server's (docs/operations.md#configuration).
import { runCompiled, targets } from './build-state.mjs';

await runCompiled(targets.server.output);
