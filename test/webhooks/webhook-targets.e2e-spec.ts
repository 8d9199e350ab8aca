import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { TargetResolver, WebhookSender } from '#contexts/webhooks';
import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * SSRF: registration refuses every blocked range and its IPv6 embeddings, and names that do not
 * resolve; an attempt connects to exactly the address that was checked.
 */
describe('webhook targets (private targets not allowed)', () => {
  let app: TestApp;
  let base: string;

  beforeAll(async () => {
    app = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: false });
    base = `/v1/entities/${app.seed.entities.primary.id}/webhook_endpoints`;
  });
  afterAll(() => app.close());

  it.each([
    'https://[64:ff9b::7f00:1]/h', // NAT64 of 127.0.0.1
    'https://[2002:7f00:1::]/h', // 6to4 of 127.0.0.1
    'https://198.18.0.1/h', // benchmarking
    'https://224.0.0.1/h', // multicast
    'https://255.255.255.255/h', // broadcast
    'https://[ff02::1]/h', // IPv6 multicast
    'https://[64:ff9b::a9fe:a9fe]/h', // NAT64 of the metadata address
    'https://[2002:a00:1::]/h', // 6to4 of 10.0.0.1
    'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/h', // Teredo, client 127.0.0.1
    'https://[::ffff:a9fe:a9fe]/h', // IPv4-mapped metadata address
    'https://100.64.0.1/h', // carrier-grade NAT
    'https://0.0.0.0/h',
    'https://240.0.0.1/h',
    'https://no-such-host.invalid/h', // does not resolve
  ])('refuses %s at registration', async (url) => {
    const res = await api(app, app.seed.entities.primary.keys.live)
      .post(base)
      .send({ url, enabled_events: ['*'] });
    expectError(res, 400, 'parameter_invalid', { param: 'url' });
  });

  it('accepts a public address', async () => {
    await api(app, app.seed.entities.primary.keys.live)
      .post(base)
      .send({ url: 'https://[2606:2800:220:1::1]/h', enabled_events: ['*'] })
      .expect(201);
  });

  it('refuses a name at delivery time when it does not resolve, without connecting', async () => {
    const decision = await app.get(TargetResolver).resolve('https://no-such-host.invalid/h');
    expect(decision).toEqual({ refusal: expect.stringContaining('does not resolve') });
  });

  it('connects to the pinned address, never resolving the host name again', async () => {
    const hits: string[] = [];
    const receiver = http.createServer((req, res) => {
      hits.push(String(req.headers.host));
      res.end('ok');
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const { port } = receiver.address() as AddressInfo;
    const sender = new WebhookSender(app.config);
    try {
      // The name does not exist in DNS: only the pinned address can be reached.
      const result = await sender.send({
        url: `http://rebound.invalid:${port}/hook`,
        body: '{}',
        secret: 'whsec_test',
        endpointId: 'we_1',
        eventId: 'evt_1',
        eventType: 'setting.tag.created',
        apiVersion: '2025-01-01',
        pinned: { address: '127.0.0.1', family: 4 },
      });
      expect(result).toMatchObject({ status: 200, body: 'ok', error: null });
      expect(hits).toEqual([`rebound.invalid:${port}`]);
    } finally {
      sender.onApplicationShutdown();
      await new Promise((r) => receiver.close(r));
    }
  });
});
