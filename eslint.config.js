import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const NO_ELECTRON = { name: 'electron', message: 'The service never imports electron.' };
const NO_DOCKERODE = {
  name: 'dockerode',
  message:
    'Only src/service/sandbox/ talks to Docker; use the SandboxWorkspace of ctx.sandboxes.workspace(id).',
};

export default tseslint.config(
  { ignores: ['out/', 'dist/', '.tools/', 'node_modules/', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-imports': 'off',
    },
  },
  {
    files: ['src/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [NO_DOCKERODE] }] },
  },
  {
    files: ['src/service/**', 'src/shared/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [NO_ELECTRON, NO_DOCKERODE] }] },
  },
  {
    // The sandbox seam: the only code that talks to Docker (bench/ and test/ may too).
    files: ['src/service/sandbox/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [NO_ELECTRON] }] },
  },
  {
    files: ['src/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
