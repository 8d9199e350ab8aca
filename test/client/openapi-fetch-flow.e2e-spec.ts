import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The client an integrator would generate with tools this project does not use: openapi-typescript
 * (default settings) reads the served description, and a flow written against openapi-fetch must
 * type-check with `strict` and then run against the app. An error here is the description's.
 */
const FLOW = `
import createClient from 'openapi-fetch';
import type { paths } from './schema';

export async function run(baseUrl: string, key: string): Promise<string[]> {
  const client = createClient<paths>({ baseUrl, headers: { Authorization: \`Bearer \${key}\` } });
  const seen: string[] = [];
  const account = await client.POST('/v1/accounts', { body: { name: 'Fetch Flow Ltd', email: 'ap@fetch.example' } });
  if (!account.data) throw new Error(\`account: \${JSON.stringify(account.error)}\`);
  seen.push(account.data.object);
  const product = await client.POST('/v1/products', {
    body: { sku: \`FETCH-\${Date.now()}\`, name: 'Fetch widget', type: 'standard', list_price: 12 },
  });
  if (!product.data) throw new Error(\`product: \${JSON.stringify(product.error)}\`);
  const order = await client.POST('/v1/orders', {
    body: { account_id: account.data.id, lines: [{ product_id: product.data.id, quantity: 1 }] },
    params: { header: { 'Idempotency-Key': \`fetch-flow-\${Date.now()}\` } },
  });
  if (!order.data) throw new Error(\`order: \${JSON.stringify(order.error)}\`);
  seen.push(order.data.order_status);
  const expanded = await client.GET('/v1/orders/{id}', {
    params: { path: { id: order.data.id }, query: { 'expand[]': ['account'] } },
  });
  const embedded = expanded.data?.account;
  // The expanded field is the account object (typed), else its id.
  if (embedded && typeof embedded === 'object') seen.push(embedded.name);
  const missing = await client.GET('/v1/orders/{id}', {
    params: { path: { id: '0190a8a0-0000-7000-8000-00000000beef' } },
  });
  if (missing.error) seen.push(missing.error.code);
  return seen;
}
`;

describe('an openapi-typescript + openapi-fetch client of the served description', () => {
  let app: TestApp;
  const dir = join(__dirname, `.openapi-fetch-flow-${process.pid}`);

  beforeAll(async () => {
    app = await startTestApp();
    mkdirSync(dir, { recursive: true });
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await app.close();
  });

  it('type-checks with strict on and runs a flow, an expanded account read as an object', async () => {
    // The generator's command line with its default settings, as an integrator runs it.
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(app.openapi));
    await promisify(execFile)(process.execPath, [
      join(__dirname, '../../node_modules/openapi-typescript/bin/cli.js'),
      join(dir, 'openapi.json'),
      '--output',
      join(dir, 'schema.d.ts'),
    ]);
    writeFileSync(join(dir, 'flow.ts'), FLOW);
    const program = ts.createProgram([join(dir, 'flow.ts')], {
      strict: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      skipLibCheck: true,
      types: [],
      outDir: dir,
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
    program.emit();

    const { port } = app.server.address() as AddressInfo;
    const runner = `require(${JSON.stringify(join(dir, 'flow.js'))}).run(process.argv[1], process.argv[2]).then((r) => console.log(JSON.stringify(r)), (e) => { console.error(e); process.exit(1); })`;
    const { stdout } = await promisify(execFile)(process.execPath, [
      '-e',
      runner,
      `http://127.0.0.1:${port}`,
      app.seed.entities.primary.keys.live,
    ]);
    expect(JSON.parse(stdout)).toEqual(['account', 'draft', 'Fetch Flow Ltd', 'not_found']);
  }, 300_000);
});
