import { z } from 'zod';

// Zod compiles object parsers with `new Function` when it may. Finding out whether it may (a
// probe that calls `new Function`) is itself a violation of the server's Content-Security-Policy
// (script-src without 'unsafe-eval'): Chrome reports it in its Issues panel on every page, and
// Lighthouse's best-practices audit counts it. The app parses small payloads; the interpreted
// parsers are fast enough. Imported first by main.tsx, before any schema is used.
z.config({ jitless: true });
