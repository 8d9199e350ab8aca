import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Deployment } from 'kubernetes-types/apps/v1';
import { parseAllDocuments, stringify } from 'yaml';
import { exampleSecret, manifests } from '../deploy/kubernetes/manifests';

/**
 * The deployment files, checked without a container runtime or a cluster:
 *
 *   node dist/scripts/deploy-check.js render   writes deploy/kubernetes/erp-api.yaml and
 *                                              erp-secrets.example.yaml from the typed manifests
 *                                              (deploy/kubernetes/manifests.ts)
 *   node dist/scripts/deploy-check.js check    fails when those files are not current or the applied
 *                                              file could not be applied twice, and validates
 *                                              docker/compose.yaml and docker/compose.production.yaml
 *                                              with `docker-compose config` (Debian's docker-compose)
 *
 * The manifests' fields are checked by the TypeScript compiler (`kubernetes-types`).
 */
const ROOT = path.resolve(__dirname, '../..');
const RENDERED = path.join(ROOT, 'deploy/kubernetes/erp-api.yaml');
const RENDERED_SECRET = path.join(ROOT, 'deploy/kubernetes/erp-secrets.example.yaml');
const HEADER =
  '# Generated from deploy/kubernetes/manifests.ts by `npm run deploy:render`; edit that file instead.\n';
const COMPOSE_FILES = ['docker/compose.yaml', 'docker/compose.production.yaml'];

/** Values for the variables the compose files require; placeholders, never used to run anything. */
const COMPOSE_ENV = {
  SECRETS_KEY: 'k1:placeholder',
  METRICS_TOKEN: 'placeholder-token-0123',
  GRAFANA_ADMIN_PASSWORD: 'placeholder',
};

export function renderManifests(): string {
  return HEADER + manifests.map((m) => stringify(m, { lineWidth: 0 })).join('---\n');
}

export function renderExampleSecret(): string {
  return (
    HEADER +
    '# The shape of the erp-secrets Secret. Never apply it as is: the apps refuse its placeholders.\n' +
    '# Create the real one with `kubectl create secret generic erp-secrets` (docs/deployment.md).\n' +
    stringify(exampleSecret, { lineWidth: 0 })
  );
}

/**
 * What would make a second `kubectl apply -f erp-api.yaml` fail or do harm: a Job (its pod
 * template cannot change, so the next release's apply is refused), a Secret (it would overwrite
 * the real one with placeholders), or a Deployment whose pods could start before the migrations.
 */
export function reapplyProblems(objects: { kind?: string; metadata?: { name?: string } }[]): string[] {
  return objects.flatMap((object) => {
    const name = `${object.kind}/${object.metadata?.name}`;
    if (object.kind === 'Job')
      return [`${name}: a Job's pod template is immutable; the next release cannot apply it`];
    if (object.kind === 'Secret') return [`${name}: applying it would overwrite the real Secret`];
    if (object.kind !== 'Deployment') return [];
    const init = (object as Deployment).spec?.template.spec?.initContainers ?? [];
    return init.some((c) => c.command?.join(' ') === 'node dist/scripts/migrate.js')
      ? []
      : [`${name}: no init container runs the migrations before the pod starts`];
  });
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
    writeFileSync(RENDERED_SECRET, renderExampleSecret());
    console.log(`wrote ${path.relative(ROOT, RENDERED)} and ${path.relative(ROOT, RENDERED_SECRET)}`);
    return 0;
  }
  if (command === 'check') {
    if (
      readFileSync(RENDERED, 'utf8') !== renderManifests() ||
      readFileSync(RENDERED_SECRET, 'utf8') !== renderExampleSecret()
    ) {
      console.error('deploy/kubernetes is not current: run `npm run deploy:render`');
      return 1;
    }
    console.log(`deploy/kubernetes/erp-api.yaml is current (${manifests.length} objects)`);
    const problems = reapplyProblems(parseAllDocuments(readFileSync(RENDERED, 'utf8')).map((d) => d.toJS()));
    if (problems.length > 0) {
      console.error(
        `deploy/kubernetes/erp-api.yaml cannot be applied release after release:\n${problems.join('\n')}`,
      );
      return 1;
    }
    console.log(
      'deploy/kubernetes/erp-api.yaml can be applied again: no Job, no Secret, migrations before every pod',
    );
    for (const file of COMPOSE_FILES) {
      validateCompose(file);
      console.log(`${file} is a valid compose file`);
    }
    return 0;
  }
  console.error('usage: deploy-check.js render|check');
  return 2;
}

if (require.main === module) process.exit(main(process.argv[2]));
