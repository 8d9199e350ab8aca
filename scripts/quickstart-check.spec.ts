import { readFileSync } from 'node:fs';
import path from 'node:path';
import { quickstartBlocks, shellBlocks, walkthroughs } from './quickstart-check';

describe("the README's quickstart", () => {
  it('takes the sh blocks of the Quickstart section only, in order', () => {
    const readme = [
      '# Title',
      '```sh',
      'echo before',
      '```',
      '## Quickstart',
      'Text.',
      '```sh',
      'echo one',
      '```',
      '```ts',
      'const x = 1;',
      '```',
      '```sh',
      'echo two',
      'echo three',
      '```',
      '## Other commands',
      '```sh',
      'echo after',
      '```',
    ].join('\n');
    expect(quickstartBlocks(readme)).toEqual(['echo one\n', 'echo two\necho three\n']);
  });

  it('covers the steps the docs promise', () => {
    const script = quickstartBlocks(readFileSync(path.join(__dirname, '../README.md'), 'utf8')).join('\n');
    for (const step of [
      'POST /accounts',
      'POST /products',
      'POST /orders',
      '/confirm',
      'expand[]=account',
      'Idempotency-Key',
      'idempotent-replayed: true',
      'webhook_endpoints',
      'verified setting.tag.created',
    ]) {
      expect(script).toContain(step);
    }
  });
});

describe('the guides CI runs', () => {
  const root = path.join(__dirname, '..');

  it('takes every sh block of a page when no section is named', () => {
    const page = ['# Guide', '```sh', 'echo one', '```', '## Step', '```sh', 'echo two', '```'].join('\n');
    expect(shellBlocks(page)).toEqual(['echo one\n', 'echo two\n']);
  });

  it('runs the Quickstart and one page per workflow, each a self-contained script', () => {
    const pages = walkthroughs(root);
    expect(pages.map((p) => p.name)).toEqual([
      'README.md#quickstart',
      'docs/guides/consuming-webhooks.md',
      'docs/guides/fulfillment-and-labels.md',
      'docs/guides/migrating-data.md',
      'docs/guides/order-to-cash.md',
      'docs/guides/procure-to-pay.md',
      'docs/guides/returns-and-refunds.md',
    ]);
    for (const page of pages.slice(1)) {
      expect(page.blocks.length).toBeGreaterThanOrEqual(4);
      expect(page.blocks[0]).toMatch(/^BASE=.*\nKEY=/);
    }
  });

  it('lists every guide in docs/guides/README.md', () => {
    const index = readFileSync(path.join(root, 'docs/guides/README.md'), 'utf8');
    const guides = walkthroughs(root).slice(1);
    expect(guides).toHaveLength(6);
    for (const guide of guides) expect(index).toContain(`(${path.basename(guide.name)})`);
  });
});
