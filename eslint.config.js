// @ts-check
// Import cycles are found by test/architecture.test.ts, not an ESLint plugin: eslint-plugin-import-x
// needs unrs-resolver, whose per-platform bindings make a lockfile `npm ci` rejects where the
// registry carries only the Linux ones.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'packages/*/dist/**',
      'packages/*/node_modules/**',
      'bench/results/**',
      'e2e/sites/*/**',
      'test/fixtures/**',
      'deploy/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      // The two classic hook rules; the React Compiler rules in v7's preset flag the
      // latest-value ref pattern this code uses on purpose and we do not compile with it.
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { disallowTypeAnnotations: false }],
      // Sanitisers and terminal-output checks match control characters on purpose.
      'no-control-regex': 'off',
    },
  },
);
