import { parseAllDocuments } from 'yaml';
import { api, exampleSecret, manifests } from '../deploy/kubernetes/manifests';
import { reapplyProblems, renderManifests } from './deploy-check';

describe('the Kubernetes manifests applied release after release', () => {
  it('hold no Job and no Secret, and every Deployment migrates before its process starts', () => {
    const rendered = parseAllDocuments(renderManifests()).map((d) => d.toJS() as { kind: string });
    expect(rendered.map((o) => o.kind)).not.toContain('Secret');
    expect(rendered.map((o) => o.kind)).not.toContain('Job');
    expect(reapplyProblems(rendered)).toEqual([]);
    expect(rendered.filter((o) => o.kind === 'Deployment')).toHaveLength(2);
  });

  it('name what would break a second apply', () => {
    const job = { kind: 'Job', metadata: { name: 'erp-migrate' } };
    const withoutMigrations = {
      ...api,
      spec: {
        ...api.spec!,
        template: { ...api.spec!.template, spec: { ...api.spec!.template.spec!, initContainers: [] } },
      },
    };
    expect(reapplyProblems([...manifests, job, exampleSecret, withoutMigrations])).toEqual([
      expect.stringMatching(/^Job\/erp-migrate: a Job's pod template is immutable/),
      expect.stringMatching(/^Secret\/erp-secrets: applying it would overwrite/),
      expect.stringMatching(/^Deployment\/erp-api: no init container runs the migrations/),
    ]);
  });
});
