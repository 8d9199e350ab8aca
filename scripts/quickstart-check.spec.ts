import { readFileSync } from 'node:fs';
import path from 'node:path';
import { quickstartBlocks } from './quickstart-check';

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
