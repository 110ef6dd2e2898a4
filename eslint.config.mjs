import js from '@eslint/js';
import { createProjectGraphAsync } from '@nx/devkit';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

// @nx/enforce-module-boundaries reads the cached project graph and silently skips itself when
// there is none (a fresh clone, CI): build it first so the boundaries are always checked.
await createProjectGraphAsync({ exitOnError: true });

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.local/**', '.cache/**', '.nx/**', 'coverage/**', 'tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unsafe-function-type': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read settings through the config classes (libs/config), never process.env directly.',
        },
      ],
    },
  },
  {
    // Module boundaries (docs/architecture.md): apps depend on libs, never on each other; pure
    // libs (contracts, money, config) use no infrastructure; no lib uses the bootstrap lib
    // (service-host); the gateway never reaches Kafka nor boots a Kafka service; the ops tool never
    // boots a service. Tags are set in each project.json.
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          banTransitiveDependencies: false,
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            {
              sourceTag: 'layer:core',
              onlyDependOnLibsWithTags: ['layer:core'],
              bannedExternalImports: ['pg', 'typeorm', 'kafkajs', 'ioredis', 'bullmq', '@nestjs/*', 'express'],
            },
            { sourceTag: 'layer:infra', onlyDependOnLibsWithTags: ['layer:core', 'layer:infra'] },
            { sourceTag: 'layer:host', onlyDependOnLibsWithTags: ['layer:core', 'layer:infra'] },
            {
              sourceTag: 'scope:gateway',
              notDependOnLibsWithTags: ['capability:kafka', 'layer:host'],
              bannedExternalImports: ['kafkajs'],
            },
            { sourceTag: 'scope:tool', notDependOnLibsWithTags: ['layer:host'] },
          ],
        },
      ],
    },
  },
  {
    // Inside a service only its composition root boots it: use cases, domain code, controllers and
    // workers get their connections (DataSource, OutboxNotifier, ROOT_LOGGER, REDIS) from the lib
    // that owns each concept, injected by Nest. Nx tags are per project, so this is per file.
    files: ['apps/**/*.ts'],
    ignores: ['apps/*/src/main.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@payments/service-host',
              message:
                'Only apps/<service>/src/main.ts boots a service; ' +
                'import tokens from the lib that owns them (messaging, platform, redis, database).',
            },
          ],
        },
      ],
    },
  },
  {
    // Plain Node scripts (CommonJS).
    files: ['**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        console: 'readonly',
        __dirname: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // jest.config.js: DEPLOY_APISERVER selects the API-server check of the k8s overlays.
    files: ['libs/config/src/**', 'tests/**', 'scripts/**', '**/*.spec.ts', 'jest.config.js'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // Short files, split by responsibility: a file that outgrows this does more than one thing.
    // Counted without blank lines and comments: the code is what grows.
    files: ['**/*.ts', '**/*.tsx', '**/*.js'],
    ignores: ['**/migrations/**', 'tests/**', '**/*.spec.ts'],
    rules: { 'max-lines': ['error', { max: 300, skipBlankLines: true, skipComments: true }] },
  },
  {
    // A test file is one suite sharing one started stack; splitting it costs a stack start in CI.
    files: ['tests/**/*.ts', 'tests/**/*.js', '**/*.spec.ts'],
    rules: { 'max-lines': ['error', { max: 500, skipBlankLines: true, skipComments: true }] },
  },
  {
    // Prettier lays the code out at 120 columns (npx prettier --check . runs with lint); it leaves
    // strings and comments as written, so this keeps those inside the same width.
    files: ['**/*.ts', '**/*.tsx', '**/*.js', '**/*.mjs'],
    ignores: ['libs/contracts/src/event-checks.generated.ts'],
    rules: { 'max-len': ['error', { code: 120, tabWidth: 2 }] },
  },
);
