import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { manifests } from '../deploy/kubernetes/manifests';

/**
 * The deployment files, checked without a container runtime or a cluster:
 *
 *   node dist/scripts/deploy-check.js render   writes deploy/kubernetes/erp-api.yaml from the
 *                                              typed manifests (deploy/kubernetes/manifests.ts)
 *   node dist/scripts/deploy-check.js check    fails when that file is not current, and validates
 *                                              docker/compose.yaml and docker/compose.production.yaml
 *                                              with `docker-compose config` (Debian's docker-compose)
 *
 * The manifests' fields are checked by the TypeScript compiler (`kubernetes-types`).
 */
const ROOT = path.resolve(__dirname, '../..');
const RENDERED = path.join(ROOT, 'deploy/kubernetes/erp-api.yaml');
const COMPOSE_FILES = ['docker/compose.yaml', 'docker/compose.production.yaml'];

/** Values for the variables the compose files require; placeholders, never used to run anything. */
const COMPOSE_ENV = {
  SECRETS_KEY: 'k1:placeholder',
  METRICS_TOKEN: 'placeholder-token-0123',
  GRAFANA_ADMIN_PASSWORD: 'placeholder',
};

export function renderManifests(): string {
  const header =
    '# Generated from deploy/kubernetes/manifests.ts by `npm run deploy:render`; edit that file instead.\n';
  return header + manifests.map((m) => stringify(m, { lineWidth: 0 })).join('---\n');
}

function validateCompose(file: string): void {
  execFileSync('docker-compose', ['-f', file, 'config', '--quiet'], {
    cwd: ROOT,
    env: { ...process.env, ...COMPOSE_ENV },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

function main(command: string | undefined): number {
  if (command === 'render') {
    writeFileSync(RENDERED, renderManifests());
    console.log(`wrote ${path.relative(ROOT, RENDERED)}`);
    return 0;
  }
  if (command === 'check') {
    if (readFileSync(RENDERED, 'utf8') !== renderManifests()) {
      console.error('deploy/kubernetes/erp-api.yaml is not current: run `npm run deploy:render`');
      return 1;
    }
    console.log(`deploy/kubernetes/erp-api.yaml is current (${manifests.length} objects)`);
    for (const file of COMPOSE_FILES) {
      validateCompose(file);
      console.log(`${file} is a valid compose file`);
    }
    return 0;
  }
  console.error('usage: deploy-check.js render|check');
  return 2;
}

process.exit(main(process.argv[2]));
