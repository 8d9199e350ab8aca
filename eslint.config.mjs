import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import jest from 'eslint-plugin-jest';
import architecture from './eslint/architecture.mjs';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'clients/typescript/src/**',
      'clients/typescript/dist/**',
      '.data/**',
      'coverage/**',
      'reports/**',
      '.stryker-tmp/**',
      'test/support/jest-transformer.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { parserOptions: { projectService: false } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        __filename: 'readonly',
      },
    },
  },
  {
    files: ['scripts/**', 'bench/**', 'test/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // Tests must be able to fail: none focused or skipped, each asserts something, and no
    // assertion sits where it may not run (a branch, a catch).
    files: ['test/**/*.ts', '**/*.spec.ts'],
    plugins: { jest },
    languageOptions: { globals: jest.environments.globals.globals },
    rules: {
      'jest/no-focused-tests': 'error',
      'jest/no-disabled-tests': 'error',
      'jest/no-conditional-expect': 'error',
      'jest/valid-expect': 'error',
      'jest/expect-expect': [
        'error',
        {
          // expect itself, supertest's `.expect(status)`, the helpers that assert with it
          // (expectError and the other expect<Something> helpers), and fast-check's fc.assert
          // (a property that returns false or throws fails the test).
          assertFunctionNames: ['expect', 'expect*', '**.expect', 'fc.assert'],
        },
      ],
    },
  },
  {
    files: ['libs/**/*.ts', 'apps/**/*.ts'],
    plugins: { architecture },
    rules: {
      'architecture/boundaries': 'error',
      'architecture/no-sql-outside-infrastructure': 'error',
      'architecture/outbox-owners': 'error',
      // Request strings are measured in code points, as the description's maxLength / minLength
      // count them (libs/platform/http/text-length.ts); validator.js's count differs.
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'class-validator',
              importNames: ['MaxLength', 'MinLength', 'Length', 'isLength', 'maxLength', 'minLength'],
              message:
                'Use MaxChars / MinChars of #platform/http/text-length (code points, as JSON Schema counts).',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests, benchmarks and scripts see a context as other code does: through its entry file.
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    plugins: { architecture },
    rules: { 'architecture/entry-files-only': 'error' },
  },
);
