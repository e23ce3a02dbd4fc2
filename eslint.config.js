import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

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
    // Machines are pure: no React, no fetch, no DOM, nothing from the app or the server.
    files: ['machines/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['react', 'react-*', '../src/*', '../server/*', '*/src/*', '*/server/*'] }],
      'no-restricted-globals': ['error', 'fetch', 'window', 'document', 'localStorage', 'sessionStorage'],
    },
  },
  {
    files: ['scripts/**', 'bench/**', 'tests/e2e/**', 'server/admin/**'],
    rules: { 'no-console': 'off' },
  },
);
