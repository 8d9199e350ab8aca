/**
 * The Jest configuration that mutation testing (`npm run test:mutation`, stryker.config.mjs) runs:
 * the unit specs of the domain layers and the webhook verifier only, with the unit project's transform and path aliases and no global
 * setup (no database, no e2e). Loaded through ts-node, transpiled only, like the root config.
 *
 * @jest-config-loader-options {"transpileOnly": true, "compilerOptions": {"module": "commonjs", "moduleResolution": "bundler"}}
 */
import path from 'node:path';
import type { Config } from 'jest';
import root from '../../jest.config';

type UnitProject = Pick<Config, 'transform' | 'transformIgnorePatterns' | 'moduleNameMapper'>;
const unit = root.projects?.find(
  (project) => typeof project === 'object' && project.displayName === 'unit',
) as UnitProject | undefined;
if (!unit) throw new Error('jest.config.ts has no "unit" project');

const config: Config = {
  rootDir: path.resolve(__dirname, '../..'),
  testEnvironment: 'node',
  moduleFileExtensions: root.moduleFileExtensions,
  transform: unit.transform,
  transformIgnorePatterns: unit.transformIgnorePatterns,
  moduleNameMapper: unit.moduleNameMapper,
  // The unit specs of the mutated code: pure domain rules, no Nest module, no database.
  testMatch: [
    '<rootDir>/libs/contexts/*/domain/**/*.spec.ts',
    '<rootDir>/libs/platform/domain/**/*.spec.ts',
    '<rootDir>/libs/contexts/webhooks/verifier/**/*.spec.ts',
  ],
};

export default config;
