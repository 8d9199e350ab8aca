// Mutation testing of the business rules: `npm run test:mutation` (docs/testing.md, "Mutation testing").
// Incremental: test/mutation/stryker-incremental.json holds the result of every mutant, so a run
// re-tests only the mutants whose code or covering tests changed since it was written.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  mutate: [
    // The shipped webhook signature verifier and the platform's state machine.
    'libs/contexts/webhooks/verifier/index.ts',
    'libs/platform/domain/state-machine.ts',
    // One file of rules per context to start with. A file added here is mutated in full by the
    // next run (15 to 25 mutants a minute on a loaded 2-core machine): run it once and commit
    // the incremental file with it, so CI re-tests only what changes.
    'libs/contexts/accounting/domain/ledger.ts',
    'libs/contexts/catalog/domain/tag.ts',
    'libs/contexts/fulfillment/domain/package.ts',
    'libs/contexts/integrations/domain/import-rules.ts',
    'libs/contexts/inventory/domain/commitment.ts',
    'libs/contexts/migration/domain/freeze.ts',
    'libs/contexts/replenishment/domain/build.ts',
    'libs/contexts/replenishment/domain/kit-components.ts',
    'libs/contexts/sales/domain/order-totals.ts',
    'libs/contexts/webhooks/domain/target-policy.ts',
  ],
  mutator: {
    // Text and container literals: in this code they are error wording, literal types the
    // checker refuses anyway, or objects whose emptying the checker refuses. Leaving them out
    // spends the run on operators, conditions, blocks and calls.
    excludedMutations: ['StringLiteral', 'ObjectLiteral', 'ArrayDeclaration'],
  },
  plugins: ['@stryker-mutator/*', './test/mutation/ignore-error-hints.mjs'],
  ignorers: ['error-hints'],
  testRunner: 'jest',
  jest: { projectType: 'custom', configFile: 'test/mutation/jest.config.ts', enableFindRelatedTests: true },
  coverageAnalysis: 'perTest',
  checkers: ['typescript'],
  // The mutated folders and what they import, not the whole project: each check takes less time.
  tsconfigFile: 'test/mutation/tsconfig.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  // Module-level constants are evaluated once at load: each would need the whole suite re-run.
  ignoreStatic: true,
  incremental: true,
  incrementalFile: 'test/mutation/stryker-incremental.json',
  concurrency: 2,
  timeoutMS: 10000,
  reporters: ['clear-text', 'progress-append-only', 'json', 'html'],
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  // Not copied into the sandbox: build output, local database, generated client build.
  ignorePatterns: [
    'dist',
    '.data',
    'coverage',
    'clients/typescript/dist',
    'test/client/.openapi-fetch-flow-*',
  ],
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};

export default config;
