import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['node_modules/**', '.skrya/**', 'bench/results/**', 'bench/.scratch/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { languageOptions: { globals: globals.node } },
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Only the shared runtime and the local stack may talk to Kafka directly.
    files: ['services/**', 'domain/**', 'ui/**', 'cli/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [
        { name: 'kafkajs', message: 'Only runtime/ talks to Kafka.' },
        { name: '@kafkajs/confluent-schema-registry', message: 'Only runtime/ talks to the schema registry.' },
      ] }],
    },
  },
  {
    // The runtime is read when something goes wrong at 3 a.m.: no function there outgrows a screen.
    files: ['runtime/**/*.ts'],
    ignores: ['runtime/**/*.test.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  {
    // The operator view's client script runs in the browser.
    files: ['ui/assets/**/*.js'],
    languageOptions: { globals: { ...globals.browser, Chart: 'readonly' } },
  },
);
