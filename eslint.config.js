import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';

// Import boundaries (docs/architecture.md §1): enforced by lint, not by convention.
const subfolders = (dir) =>
  readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
const webFeatures = subfolders('./packages/web/src/features/');
const serverModules = subfolders('./packages/server/src/modules/');

const boundaryZones = [
  // Web (bulletproof-react): a feature never imports another feature; shared code flows one way.
  ...webFeatures.map((feature) => ({
    target: `./packages/web/src/features/${feature}`,
    from: './packages/web/src/features',
    except: [`./${feature}`],
    message: 'A web feature never imports another feature: move shared code to components/ or lib/.',
  })),
  {
    target: ['./packages/web/src/components', './packages/web/src/lib'],
    from: ['./packages/web/src/features', './packages/web/src/app'],
    message: 'components/ and lib/ never import features or app/.',
  },
  // Server: a module uses another module through its service, never its queries.
  ...serverModules.map((module) => ({
    target: `./packages/server/src/modules/${module}`,
    from: `./packages/server/src/modules/!(${module})/**/*.queries.ts`,
    message: 'A module uses another module through its service, never its queries.',
  })),
  {
    target: './packages/server/src/live',
    from: './packages/server/src/modules/**/*.queries.ts',
    message: 'live/ uses modules through their services, never their queries.',
  },
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    files: ['**/*.{ts,tsx}'],
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
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs'] })],
    },
    rules: { 'import-x/no-restricted-paths': ['error', { zones: boundaryZones }] },
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
