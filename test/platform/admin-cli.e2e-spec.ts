import { PassThrough } from 'node:stream';
import { Client } from 'pg';
import { main } from '../../scripts/admin';
import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

const collect = () => {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (d: Buffer) => (text += d.toString()));
  return { stream, text: () => text };
};

describe('admin command line', () => {
  let app: TestApp;
  let env: NodeJS.ProcessEnv;

  const admin = async (...argv: string[]) => {
    const out = collect();
    const err = collect();
    const code = await main(argv, out.stream, err.stream, env);
    return { code, out: out.text(), err: err.text() };
  };

  beforeAll(async () => {
    app = await startTestApp();
    env = {
      DATABASE_URL: app.databaseUrl,
      REDIS_URL: app.config.REDIS_URL,
      QUEUE_PREFIX: app.config.QUEUE_PREFIX,
      DB_POOL_MAX: '2',
    };
  });
  afterAll(() => app.close());

  it('creates an entity whose first key works, then creates, lists, rotates and revokes keys', async () => {
    const created = await admin(
      'entities:create',
      '--code',
      'acmecli',
      '--name',
      'Acme CLI Ltd',
      '--currency',
      'EUR',
    );
    expect(created).toMatchObject({ code: 0, err: '' });
    const secret = /\n {2}(key_live_ent_acmecli_\S+)\n/.exec(created.out)?.[1];
    expect(secret).toBeDefined();
    expect(created.out).toContain('base currency EUR');

    const first = api(app, secret);
    await first.get('/v1/tags').expect(200);
    const tag = await first.post('/v1/tags').send({ name: 'From the CLI key' }).expect(201);
    // The new entity is isolated from the seeded one.
    await api(app, app.seed.entities.primary.keys.live).get(`/v1/tags/${tag.body.id}`).expect(404);

    const listed = await admin('entities:list', '--json');
    const entities = JSON.parse(listed.out) as { code: string; base_currency: string }[];
    expect(entities).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: 'acmecli', base_currency: 'EUR' })]),
    );

    const readOnly = await admin(
      'keys:create',
      '--entity',
      'acmecli',
      '--name',
      'Reporting',
      '--mode',
      'test',
      '--scopes',
      'orders:read',
      '--json',
    );
    expect(readOnly.code).toBe(0);
    const testKey = JSON.parse(readOnly.out) as {
      id: string;
      secret: string;
      mode: string;
      scopes: string[];
    };
    expect(testKey).toMatchObject({ mode: 'test', scopes: ['orders:read'] });
    await api(app, testKey.secret).get('/v1/orders').expect(200);
    expectError(await api(app, testKey.secret).get('/v1/tags'), 403, 'insufficient_scope');

    const keys = JSON.parse((await admin('keys:list', '--entity', 'acmecli', '--json')).out) as {
      id: string;
      secret?: string;
    }[];
    expect(keys).toHaveLength(2);
    expect(keys.every((k) => k.secret === undefined)).toBe(true);

    const firstId = keys.find((k) => k.id !== testKey.id)!.id;
    const rotated = await admin('keys:rotate', '--id', firstId, '--json');
    const replacement = JSON.parse(rotated.out) as { secret: string; rotated_from_id: string };
    expect(replacement.rotated_from_id).toBe(firstId);
    expectError(await first.get('/v1/tags'), 401, 'api_key_revoked');
    await api(app, replacement.secret).get('/v1/tags').expect(200);

    const revoked = await admin('keys:revoke', '--id', testKey.id, '--json');
    expect(JSON.parse(revoked.out)).toMatchObject({ id: testKey.id, status: 'revoked' });
    expectError(await api(app, testKey.secret).get('/v1/orders'), 401, 'api_key_revoked');
  });

  it('refuses bad input with a message and a non-zero exit code', async () => {
    expect(
      await admin('entities:create', '--code', 'acmecli', '--name', 'Again', '--currency', 'EUR'),
    ).toMatchObject({
      code: 1,
      err: expect.stringContaining("resource_conflict (code): An entity with code 'acmecli' already exists."),
    });
    expect(
      await admin('entities:create', '--code', 'Bad Code', '--name', 'X', '--currency', 'EUR'),
    ).toMatchObject({
      code: 1,
      err: expect.stringContaining('parameter_invalid (code)'),
    });
    expect(
      await admin('entities:create', '--code', 'okcode', '--name', 'X', '--currency', 'euro'),
    ).toMatchObject({
      code: 1,
      err: expect.stringContaining('parameter_invalid (currency)'),
    });
    expect(await admin('keys:list', '--entity', 'nosuch')).toMatchObject({
      code: 1,
      err: expect.stringContaining('not_found'),
    });
    expect(
      await admin('keys:create', '--entity', 'acmecli', '--name', 'x', '--scopes', 'bogus:read'),
    ).toMatchObject({
      code: 1,
      err: expect.stringContaining('parameter_invalid (scopes[0])'),
    });
    expect(await admin('keys:revoke', '--id', 'nope')).toMatchObject({
      code: 1,
      err: expect.stringContaining('not_found'),
    });
    expect(await admin('entities:create', '--name', 'X')).toMatchObject({
      code: 2,
      err: expect.stringContaining('--code is required'),
    });
    expect(await admin('frobnicate')).toMatchObject({
      code: 2,
      err: expect.stringContaining("unknown command 'frobnicate'"),
    });
  });

  it('prints its usage for --help and help, exit code 0', async () => {
    for (const flag of ['--help', '-h', 'help']) {
      const result = await admin(flag);
      expect({ flag, code: result.code, err: result.err }).toEqual({ flag, code: 0, err: '' });
      expect(result.out).toContain('keys:create --entity <code>');
    }
  });

  it('on a database without the migrations says to run them, exit code 1', async () => {
    // SQL: an empty database on the same server is a state no route can make.
    const name = `erp_empty_${process.pid}`;
    const adminUrl = new URL(app.databaseUrl);
    adminUrl.pathname = '/postgres';
    const server = new Client({ connectionString: adminUrl.toString() });
    await server.connect();
    await server.query(`DROP DATABASE IF EXISTS ${name}`);
    await server.query(`CREATE DATABASE ${name}`);
    try {
      const emptyUrl = new URL(app.databaseUrl);
      emptyUrl.pathname = `/${name}`;
      const err = collect();
      const code = await main(['entities:list'], collect().stream, err.stream, {
        ...env,
        DATABASE_URL: emptyUrl.toString(),
      });
      expect(code).toBe(1);
      expect(err.text()).toBe('The database has no tables yet: run `npm run db:migrate` first.\n');
    } finally {
      await server.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await server.end();
    }
  });
});
