import { HostResolver } from '#platform/net/host-resolver';
import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * SSRF at registration: a connector's shop URL is judged like a webhook receiver URL, its host
 * name resolved and every address checked, on create and on PATCH (private targets not allowed).
 */
describe('connector shop URLs (private targets not allowed)', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  let seq = 0;
  let lookups: jest.SpyInstance;
  /** Names the resolver answers here (the rest go to the system resolver), so the test needs no DNS of its own. */
  const answers: Record<string, string[]> = {
    'shop.loopback.test': ['127.0.0.1'],
    'shop.mixed.test': ['93.184.215.14', '10.1.2.3'],
    'shop.metadata.test': ['169.254.169.254'],
    'shop.public.test': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  };

  beforeAll(async () => {
    app = await startTestApp({
      CONNECTOR_ALLOW_PRIVATE_TARGETS: false,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: false,
    });
    live = api(app, app.seed.entities.primary.keys.live);
    const resolver = app.get(HostResolver);
    const system = resolver.lookup.bind(resolver);
    lookups = jest
      .spyOn(resolver, 'lookup')
      .mockImplementation(async (host: string) =>
        host in answers
          ? answers[host].map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
          : system(host),
      );
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await app.close();
  });

  const create = (shopUrl: string) =>
    live.post('/v1/integrations').send({
      type: 'storefront',
      name: `Shop ${++seq}`,
      credentials: { access_token: 'shpat_test_token' },
      settings: { adapter: 'shopify', shop_url: shopUrl },
    });

  it.each([
    [
      'https://shop.loopback.test:4406',
      'shop_url resolves to a loopback address, which connectors may not call.',
    ],
    ['https://shop.mixed.test', 'shop_url resolves to a private address, which connectors may not call.'],
    ['https://shop.metadata.test', 'shop_url resolves to a cloud metadata address.'],
    ['https://no-such-shop.invalid', "shop_url host 'no-such-shop.invalid' does not resolve."],
  ])('refuses %s at create, as webhook registration refuses its host', async (shopUrl, hint) => {
    expectError(await create(shopUrl), 400, 'parameter_invalid', { param: 'settings.shop_url', hint });
    // The same host as a webhook receiver: the same check, the same code.
    const webhook = await live
      .post('/v1/webhook_endpoints')
      .send({ url: `${shopUrl}/hooks`, enabled_events: ['*'] });
    expectError(webhook, 400, 'parameter_invalid', { param: 'url' });
  });

  it('accepts a host resolving to public addresses only, and refuses a PATCH to a loopback name', async () => {
    const created = await create('https://shop.public.test').expect(201);
    expect(created.body.settings.shop_url).toBe('https://shop.public.test');
    const id = created.body.id as string;

    const patched = await live
      .patch(`/v1/integrations/${id}`)
      .send({ settings: { shop_url: 'https://shop.loopback.test:4406' } });
    expectError(patched, 400, 'parameter_invalid', {
      param: 'settings.shop_url',
      hint: 'shop_url resolves to a loopback address, which connectors may not call.',
    });
    // Refused: the stored URL is the one registered.
    const stored = await live.get(`/v1/integrations/${id}`).expect(200);
    expect(stored.body.settings.shop_url).toBe('https://shop.public.test');

    // A PATCH that leaves the URL as it is does not resolve it again.
    const before = lookups.mock.calls.length;
    const renamed = await live.patch(`/v1/integrations/${id}`).send({ name: 'Renamed shop' }).expect(200);
    expect(renamed.body).toMatchObject({
      name: 'Renamed shop',
      settings: { shop_url: 'https://shop.public.test' },
    });
    expect(lookups.mock.calls.length).toBe(before);
  });
});
