import { defineConfig } from 'vitest/config';

// Three projects (docs/development.md "Where tests live"): fast unit tests beside the code; integration
// tests that start the real server over HTTP and websockets against PGlite (default) or PostgreSQL
// (TEST_DATABASE_URL), beside the code or, for the agent and the server together, in
// packages/system-tests; and the Windows agent under Wine. Test helpers live in packages/*/test/.
const integrationFiles = [
  'packages/*/src/**/*.int.test.ts',
  'packages/*/test/**/*.int.test.ts',
  // the agent and the server together
  'packages/system-tests/test/**/*.int.test.ts',
];
const integrationExcluded = [
  '**/node_modules/**',
  '**/*.wine.test.ts',
  process.env.TEST_DATABASE_URL ? '**/*.pglite.int.test.ts' : '**/*.pg.int.test.ts',
];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'packages/*/src/**/*.test.tsx', 'scripts/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: integrationFiles,
          // Fault tests that concern one database run once: *.pg.int.test.ts need
          // PostgreSQL and run in the PostgreSQL run (npm run test:integration:pg);
          // *.pglite.int.test.ts are about the embedded default and run in the PGlite run.
          exclude: [...integrationExcluded, '**/*.isolated.int.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // One file at a time, all in one process that keeps its modules between files: importing
          // the server for every file cost about a second of each file's time. Each file starts
          // its own server and database and leaves the process as it found it (environment
          // variables included).
          fileParallelism: false,
          isolate: false,
        },
      },
      {
        // The few integration files that replace a module (vi.mock) get a module graph of their own.
        test: {
          name: 'integration-isolated',
          include: integrationFiles.map((f) => f.replace('*.int.test.ts', '*.isolated.int.test.ts')),
          exclude: integrationExcluded,
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        // The Windows agent under Wine (docs/agent-windows.md): its own project, run by
        // `npm run test:wine` after scripts/wine.mjs has installed Wine; never part of the others.
        test: {
          name: 'wine',
          include: ['packages/system-tests/test/wine/**/*.wine.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
