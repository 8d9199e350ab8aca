// `npm run test:model -- --runs 500 [--seed N] [--max-commands 15] [--only ship,invoice] [--no-shrink]`:
// runs the model-based tests (test/**/*.model-spec.ts) with more runs than `npm test` does, on a
// random seed unless one is given (the seed is printed at the start and in a failure's report).
import { spawnSync } from 'node:child_process';

const options = { runs: '200' };
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  if (arg === '--no-shrink') options.shrink = '0';
  else if (['--runs', '--seed', '--max-commands', '--only'].includes(arg) && args[i + 1] !== undefined)
    options[arg.slice(2)] = args[++i];
  else {
    console.error(`test:model: unknown argument ${arg}`);
    console.error(
      'usage: npm run test:model -- [--runs N] [--seed N] [--max-commands N] [--only a,b] [--no-shrink]',
    );
    process.exit(2);
  }
}
if (!/^[1-9]\d*$/.test(options.runs)) {
  console.error('test:model: --runs takes a positive integer');
  process.exit(2);
}
const seed = options.seed ?? String(Math.floor(Math.random() * 2 ** 31));
console.log(`test:model: ${options.runs} runs, seed ${seed}`);
const env = {
  ...process.env,
  MODEL_RUNS: options.runs,
  MODEL_SEED: seed,
  ...(options['max-commands'] ? { MODEL_MAX_COMMANDS: options['max-commands'] } : {}),
  ...(options.only ? { MODEL_ONLY: options.only } : {}),
  ...(options.shrink ? { MODEL_SHRINK: options.shrink } : {}),
};
const jest = spawnSync(
  'npx',
  ['jest', '--selectProjects', 'e2e', '--maxWorkers=1', '--testPathPatterns', '\\.model-spec\\.ts$'],
  { stdio: 'inherit', env },
);
if (jest.status !== 0)
  console.error(
    `test:model: failed with seed ${seed} (rerun: npm run test:model -- --runs ${options.runs} --seed ${seed})`,
  );
process.exit(jest.status ?? 1);
