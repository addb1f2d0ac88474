import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import boundaries from 'eslint-plugin-boundaries';

// Import boundaries (docs/architecture.md §1), enforced by lint rather than convention.
const subfolders = (dir) =>
  readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
const webFeatures = subfolders('./packages/web/src/features/');
const serverModules = subfolders('./packages/server/src/modules/');
const others = (list, name) => list.filter((item) => item !== name);

const boundaryElements = [
  ...webFeatures.map((name) => ({
    type: `web-feature:${name}`,
    pattern: `packages/web/src/features/${name}`,
  })),
  { type: 'web-shared', pattern: 'packages/web/src/(components|lib)' },
  { type: 'web-app', pattern: 'packages/web/src/app' },
  ...serverModules.map((name) => ({
    type: `server-module:${name}`,
    pattern: `packages/server/src/modules/${name}`,
  })),
  { type: 'server-live', pattern: 'packages/server/src/live' },
  // The rest of a package's code, so that the rules below reach every file of src/.
  { type: 'package-src', pattern: 'packages/*/src' },
  // A package's test helpers (docs/development.md "Where tests live").
  { type: 'test-support', pattern: 'packages/*/test' },
];

const boundaryPolicies = [
  // bulletproof-react: a feature never imports another feature; shared code flows one way.
  ...webFeatures.map((name) => ({
    from: { element: { type: `web-feature:${name}` } },
    disallow: {
      to: { element: { types: { anyOf: others(webFeatures, name).map((other) => `web-feature:${other}`) } } },
    },
    message: 'A web feature never imports another feature: move what they share to components/ or lib/.',
  })),
  {
    from: { element: { type: 'web-shared' } },
    disallow: {
      to: { element: { types: { anyOf: ['web-app', ...webFeatures.map((name) => `web-feature:${name}`)] } } },
    },
    message: 'components/ and lib/ never import features or app/.',
  },
  // Server layering: a module uses another module through its service, never its queries.
  ...serverModules.map((name) => ({
    from: { element: { type: `server-module:${name}` } },
    disallow: {
      to: {
        element: { types: { anyOf: others(serverModules, name).map((other) => `server-module:${other}`) } },
        file: { categories: 'queries' },
      },
    },
    message: 'A module uses another module through its service, never its queries.',
  })),
];

// Production code never imports a test helper; tests (a later block) do.
const testSupportPolicy = {
  disallow: { to: { element: { type: 'test-support' } } },
  message: 'Only tests import packages/*/test/: move what production code needs into src/.',
};

// live/ is transport below the modules: what it needs of them is passed in from app.ts. Its tests
// (a later block) may still set up through the modules.
const livePolicy = {
  from: { element: { type: 'server-live' } },
  disallow: { to: { element: { types: { anyOf: serverModules.map((name) => `server-module:${name}`) } } } },
  message: 'live/ sits below the modules and imports none: take what it needs as a port wired in app.ts.',
};

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '**/test-results/**', '**/playwright-report/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    files: ['**/*.{ts,tsx,mts}'],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      // Lint for real bugs (STYLE.md): no floating promises, exhaustive switches, eqeqeq, curly.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      curly: ['error', 'all'],
    },
  },
  {
    files: ['packages/*/src/**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } },
      'boundaries/elements': boundaryElements,
      'boundaries/files': [{ category: 'queries', pattern: '**/*.queries.ts' }],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        { default: 'allow', policies: [...boundaryPolicies, livePolicy, testSupportPolicy] },
      ],
    },
  },
  {
    files: ['packages/*/src/**/*.test.{ts,tsx}'],
    rules: {
      'boundaries/dependencies': ['error', { default: 'allow', policies: [...boundaryPolicies, livePolicy] }],
    },
  },
  {
    files: ['packages/server/src/live/**/*.test.ts'],
    rules: { 'boundaries/dependencies': ['error', { default: 'allow', policies: boundaryPolicies }] },
  },
  // One owner per table: SQL is written in a module's *.queries.ts (or db/, which defines the
  // schema and the connection), so every statement on a table is found beside the module that
  // owns it. Services, routes and live/ reach the database only through those queries.
  {
    files: ['packages/server/src/**/*.ts'],
    ignores: [
      '**/*.queries.ts',
      'packages/server/src/db/**',
      // Tests set up and inspect rows directly (their helpers live in packages/server/test/).
      '**/*.test.ts',
      // lib/db.ts: the typed helpers every queries file builds on (Executor, arrayParam, ...).
      'packages/server/src/lib/db.ts',
      // lib/scope.ts: the one tenant and site WHERE clause every queries file uses.
      'packages/server/src/lib/scope.ts',
      // lib/audit.ts: the audit trail, written inside the transaction of the change it records by
      // every module; in lib/ because a module never imports another module's queries.
      'packages/server/src/lib/audit.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['drizzle-orm', 'drizzle-orm/*'],
              message: 'SQL lives in a *.queries.ts of the module that owns the table.',
            },
            {
              regex: '(^|/)db/schema(/|$)',
              message: 'SQL lives in a *.queries.ts of the module that owns the table.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: { ...globals.node } },
  },
);
