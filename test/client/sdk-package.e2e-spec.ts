import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Stripe from 'stripe';
import { api } from '../support/http';
import { FAST_WEBHOOKS, startDispatcher } from '../support/dispatcher';
import { waitFor } from '../support/eventually';
import { startTestApp, TestApp } from '../support/test-app';
import { startReceiver } from '../webhooks/webhook-harness';

const ROOT = path.resolve(__dirname, '../..');
const PACKAGE_DIR = path.join(ROOT, 'clients/typescript');
/** Loads a compiled module the way a CommonJS consumer would. */
const load = createRequire(__filename);

/** The ```ts blocks of the package's README, in order. */
function readmeExamples(): string[] {
  const readme = readFileSync(path.join(PACKAGE_DIR, 'README.md'), 'utf8');
  return [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/**
 * The SDK as an integrator gets it: `npm install ./clients/typescript` into an empty project,
 * the README's examples compiled there by `tsc --strict` with no project settings but the module
 * kind, the first one run against the real app, and a real webhook delivery verified by the
 * package's `constructWebhookEvent` and by Stripe's SDK.
 */
describe('the SDK package (clients/typescript)', () => {
  let app: TestApp;
  let project: string;
  let baseUrl: string;
  let packedFiles: string[];

  beforeAll(async () => {
    app = await startTestApp();
    baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    project = mkdtempSync(path.join(os.tmpdir(), 'erp-sdk-consumer-'));
    writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'sdk-consumer', private: true, type: 'module' }),
    );
    // From a checkout with no build of the package: `npm pack` must build it (prepack).
    rmSync(path.join(PACKAGE_DIR, 'dist'), { recursive: true, force: true });
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--loglevel=error', '--pack-destination', project], {
        cwd: PACKAGE_DIR,
        encoding: 'utf8',
      }),
    ) as { filename: string; files: { path: string }[] }[];
    packedFiles = packed.files.map((f) => f.path);
    execFileSync(
      'npm',
      ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', `./${packed.filename}`],
      { cwd: project },
    );
  }, 180_000);
  afterAll(async () => {
    rmSync(project, { recursive: true, force: true });
    await app.close();
  });

  it('packs its build (the compiled entry point, types and webhook helpers) with no build beforehand', () => {
    expect(packedFiles).toEqual(
      expect.arrayContaining([
        'dist/index.js',
        'dist/index.d.ts',
        'dist/src/webhooks.js',
        'dist/src/webhooks.d.ts',
        'package.json',
        'README.md',
      ]),
    );
  });

  it('installs from its packed tarball with its version tied to the API version', () => {
    const installed = JSON.parse(
      readFileSync(path.join(project, 'node_modules/@erp-integration-api/client/package.json'), 'utf8'),
    ) as { version: string };
    const { API_VERSION } = load(path.join(PACKAGE_DIR, 'dist/index.js')) as { API_VERSION: string };
    expect({ version: installed.version, API_VERSION }).toEqual({
      version: '2026.9.22',
      API_VERSION: '2026-09-22',
    });
  });

  it("compiles the README's examples with tsc --strict and runs the first against the API", async () => {
    const examples = readmeExamples();
    expect(examples).toHaveLength(2);
    examples.forEach((code, i) => writeFileSync(path.join(project, `example-${i + 1}.ts`), code));
    // The consumer project has no @types packages: Node.js types only when a file asks for them.
    const tsc = (files: string[], nodeTypes: boolean) =>
      execFileSync(
        process.execPath,
        [
          path.join(ROOT, 'node_modules/typescript/bin/tsc'),
          '--strict',
          '--module',
          'nodenext',
          '--target',
          'es2022',
          ...(nodeTypes ? ['--typeRoots', path.join(ROOT, 'node_modules/@types'), '--types', 'node'] : []),
          '--outDir',
          'out',
          ...files,
        ],
        { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] },
      );
    // The API calls need no Node.js types: only the example's own `process.env` is declared.
    writeFileSync(
      path.join(project, 'env.d.ts'),
      'declare const process: { env: Record<string, string | undefined> };\n',
    );
    tsc(['env.d.ts', 'example-1.ts'], false);
    // The webhook receiver is a Node.js server.
    tsc(['example-2.ts'], true);
    // Asynchronously: the app answering the example runs in this process. The base URL is given
    // with `/v1`, as the start banner prints it.
    const { stdout } = await promisify(execFile)(process.execPath, ['out/example-1.js'], {
      cwd: project,
      env: { ...process.env, ERP_BASE_URL: `${baseUrl}/v1`, ERP_KEY: app.seed.entities.primary.keys.live },
      encoding: 'utf8',
    });
    expect(stdout.trim()).toBe('confirmed');
  }, 120_000);

  it("verifies a real delivery with the package's constructWebhookEvent and with Stripe's SDK", async () => {
    const dispatcher = await startDispatcher(app, FAST_WEBHOOKS);
    const receiver = await startReceiver();
    try {
      const entity = app.seed.entities.primary.id;
      const key = app.seed.entities.primary.keys.live;
      const endpoint = await api(app, key)
        .post(`/v1/entities/${entity}/webhook_endpoints`)
        .send({ url: receiver.url('/sdk'), enabled_events: ['setting.tag.created'] })
        .expect(201);
      const secret = (endpoint.body as { secret: string }).secret;
      await api(app, key)
        .post('/v1/tags')
        .send({ name: `sdk-${Date.now()}` })
        .expect(201);
      const delivery = await waitFor(() => receiver.on('/sdk')[0], { label: 'a delivery to the receiver' });
      const header = delivery.headers['service-signature'] as string;

      const sdk = load(
        path.join(project, 'node_modules/@erp-integration-api/client'),
      ) as typeof import('../../clients/typescript');
      const event = sdk.constructWebhookEvent(delivery.body, header, secret);
      expect(event.type).toBe('setting.tag.created');
      expect(() => sdk.constructWebhookEvent(delivery.body, header, `${secret}x`)).toThrow(
        sdk.WebhookSignatureError,
      );

      const stripe = new Stripe('sk_test_unused');
      const viaStripe = stripe.webhooks.constructEvent(delivery.body, header, secret) as unknown as {
        id: string;
      };
      expect(viaStripe.id).toBe(event.id);
    } finally {
      await receiver.close();
      await dispatcher.close();
    }
  });
});
