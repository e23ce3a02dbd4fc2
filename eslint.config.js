import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';

const root = import.meta.dirname;

/** Every route group under src/pages/: a new folder is fenced in without touching this file. */
const pageGroups = readdirSync(join(root, 'src/pages'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

/**
 * The client's import zones (decision 013), as bulletproof-react draws them: imports run one way,
 * shared → features → app. Shared code is src/components/, src/format/, src/api/ and the modules
 * at the top of src/ (i18n, settings, inspect); features are the route groups in src/pages/; the
 * app (src/app/, src/main.tsx) puts them together. Below all of them: machines/, charts/,
 * contract/, styles/, locales/.
 */
const shared = ['./src/components', './src/format', './src/api', './src/i18n.ts', './src/settings.ts', './src/inspect.ts'];
const importZones = [
  {
    target: shared,
    from: ['./src/pages', './src/app', './src/main.tsx'],
    message: 'Shared code (components, format, api, i18n, settings) is used by pages and the app; it never imports them.',
  },
  {
    target: './src/pages',
    from: './src/app',
    message: 'A page never imports the app (src/app/); what several features need goes into shared code.',
  },
  ...pageGroups.map((group) => ({
    target: `./src/pages/${group}`,
    from: './src/pages',
    except: [`./${group}`],
    message: `src/pages/${group}/ may not import another page group: move what both need into shared code (src/components/, src/format/, src/api/).`,
  })),
  {
    target: './src/api',
    from: ['./src/components', './src/i18n.ts', './src/inspect.ts', './machines', './charts'],
    message: 'src/api/ is the HTTP client and its endpoints only: no UI, no machines, no app.',
  },
  {
    target: ['./machines', './charts', './contract'],
    from: ['./src', './server', './tests', './scripts'],
    message: 'machines/, charts/ and contract/ are the bottom layer: they import nothing from the app, the server, tests or scripts.',
  },
];

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'data', '.data-test', 'test-results', 'docs/coverage', 'docs/flows', 'bench/results.json'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'machines/**/*.ts', 'charts/**/*.ts', 'contract/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })] },
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: root, zones: importZones }] },
  },
  {
    // HTTP only: the API modules run without React, without actors.
    files: ['src/api/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['react', 'react-*', 'react/*', '@xstate/*', 'xstate', 'xstate/*', 'i18next'], message: 'src/api/ is HTTP only: no React, no actors, no i18next instance.' }] }],
    },
  },
  {
    // Machines are pure: no React, no fetch, no DOM, nothing from the app or the server.
    files: ['machines/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['react', 'react-*', '../src/*', '../server/*', '*/src/*', '*/server/*'] }],
      'no-restricted-globals': ['error', 'fetch', 'window', 'document', 'localStorage', 'sessionStorage'],
      // What the contract says is read from it as it is declared, never through a double cast.
      'no-restricted-syntax': [
        'error',
        { selector: 'TSAsExpression > TSAsExpression.expression[typeAnnotation.type="TSUnknownKeyword"]', message: 'No `as unknown as` in machines/: export what is needed from contract/ with its own type.' },
      ],
    },
  },
  {
    // No import cycles between server files (decision 025). Type-only imports do not count: the
    // rule skips `import type` and imports whose every name is a type. The resource folders'
    // one-way layers are checked by tests/lint/server-layers.test.ts.
    files: ['server/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })],
      'import-x/extensions': ['.ts', '.js'],
    },
    rules: { 'import-x/no-cycle': 'error' },
  },
  {
    files: ['scripts/**', 'bench/**', 'tests/e2e/**', 'server/admin/**'],
    rules: { 'no-console': 'off' },
  },
);
