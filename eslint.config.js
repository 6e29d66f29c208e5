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

/**
 * The floors of the service, highest first (see src/service/README.md): a folder imports from its own floor
 * and the ones below, never from a higher one, and never the composition root (index.ts, cli.ts).
 */
const SERVICE_FLOORS = [
  ['routes', 'agent-server'],
  ['conversations', 'local-repository', 'settings', 'gateway'],
  ['agent', 'acp', 'sandbox', 'git', 'mcp', 'microagents'],
  ['events', 'secrets', 'storage', 'http'],
];

/** A relative import specifier that climbs into `folder` (`../conversations/x`, `../../http/y`). */
const climbsInto = (folder) => `(^|/)\\.\\./${folder}(/|$)`;

const NO_TEST_IMPORTS = {
  regex: '(^|/)test/',
  message: 'Code under src/ never imports test/ (test helpers live in test/support/).',
};

function floorRules() {
  return SERVICE_FLOORS.flatMap((floor, level) =>
    floor.map((folder) => {
      const higher = SERVICE_FLOORS.slice(0, level).flat();
      const patterns = [
        NO_TEST_IMPORTS,
        {
          regex: '(^|/)\\.\\./(index|cli)$',
          message: 'Only the composition root wires the service together.',
        },
        ...higher.map((name) => ({
          regex: climbsInto(name),
          message: `${folder}/ is on a lower floor than ${name}/: pass what it needs down, or move the shared part down.`,
        })),
      ];
      return {
        files: [`src/service/${folder}/**/*.ts`],
        ignores: ['**/*.test.ts'],
        rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] },
      };
    }),
  );
}

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
  // Every promise is awaited, returned, handled or let go on purpose with `void`; none is passed where a
  // callback's result is ignored (an event handler, a forEach) unless that is what was meant.
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  // Boundaries: the floors of the service, the renderer apart from the service, src/ apart from test/.
  // (@typescript-eslint/no-restricted-imports, so that these stay separate from the core rule's lists above.)
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [NO_TEST_IMPORTS] }] },
  },
  ...floorRules(),
  {
    files: ['src/renderer/**/*.ts', 'src/renderer/**/*.tsx', 'src/shared/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            NO_TEST_IMPORTS,
            {
              regex: climbsInto('(service|main)'),
              message:
                'The renderer and shared/ never import the service or Electron code; shared/ holds what both sides use.',
            },
          ],
        },
      ],
    },
  },
  // Configuration is read in one place: src/service/config.ts.
  {
    files: ['src/service/**/*.ts'],
    ignores: ['src/service/config.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message:
            'The service reads its environment in config.ts only: take the value from the configuration passed down.',
        },
      ],
    },
  },
  {
    files: ['src/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
