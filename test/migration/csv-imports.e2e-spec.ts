import { INestApplicationContext } from '@nestjs/common';
import { ledgerFixtures } from '../accounting/support/accounting-fixtures';
import { orphanImportRows } from '../support/database';
import { api, expectError } from '../support/http';
import { startDispatcher } from '../support/dispatcher';
import { LONG_WAIT, waitFor } from '../support/eventually';
import { startTestApp, TestApp } from '../support/test-app';
import { mappedExternalIds } from './support/imported-rows';

const FINISHED = ['completed', 'completed_with_errors', 'failed'];

/** CSV uploads (Content-Type: text/csv) of every importable resource. */
describe('CSV imports', () => {
  let app: TestApp;
  let worker: INestApplicationContext;
  let base: string;
  let migration: ReturnType<typeof api>;
  let live: ReturnType<typeof api>;

  beforeAll(async () => {
    app = await startTestApp();
    base = `/v1/entities/${app.seed.entities.primary.id}/migration/imports`;
    migration = api(app, app.seed.entities.primary.keys.migration);
    live = api(app, app.seed.entities.primary.keys.live);
    worker = await startDispatcher(app);
  });
  afterAll(async () => {
    await worker?.close();
    await app.close();
  });

  const upload = (resource: string, csv: string) =>
    migration.post(`${base}?resource=${resource}`).set('Content-Type', 'text/csv').send(csv);
  const runCsv = async (resource: string, csv: string) => {
    const created = await upload(resource, csv).expect(201);
    expect(created.body).toMatchObject({ object: 'import', resource, status: 'queued' });
    return waitFor(async () => {
      const res = await migration.get(`${base}/${created.body.id}`).expect(200);
      return FINISHED.includes(res.body.status) && res.body;
    }, LONG_WAIT);
  };
  const errorsOf = async (importId: string) =>
    (
      (await migration.get(`${base}/${importId}/errors?limit=100`).expect(200)).body.data as {
        row: number;
        external_id: string | null;
        error: { code: string; param?: string };
      }[]
    ).map((e) => [e.row, e.external_id, e.error.code, e.error.param]);
  /** The resource an import mapped to an external id, read through its REST route. */
  const imported = async (importId: string, resource: string, path: string, externalId: string) => {
    const mapped = await mappedExternalIds(app, importId, resource, [externalId]);
    expect(mapped.has(externalId)).toBe(true);
    return (await live.get(`/v1/${path}/${mapped.get(externalId)}`).expect(200)).body;
  };

  it('tags: BOM, CRLF, quoted commas, doubled quotes and line breaks; row errors name the CSV line', async () => {
    const csv =
      '\uFEFFexternal_id,name,color\r\n' +
      'CSV-T1,"Wholesale, West",#00aa00\r\n' +
      'CSV-T2,"The ""Big"" one",\r\n' +
      'CSV-T3,"Three, on\r\ntwo lines",#112233\r\n' +
      '\r\n' +
      'CSV-T4,,#000000\r\n' +
      'CSV-T5,Plain,green\r\n';
    const done = await runCsv('tags', csv);
    expect(done).toMatchObject({ status: 'completed_with_errors', total: 5, succeeded: 3, failed: 2 });
    // Line 1 is the header; CSV-T3 spans lines 4-5; line 6 is empty.
    expect(await errorsOf(done.id)).toEqual([
      [7, 'CSV-T4', 'parameter_missing', 'name'],
      [8, 'CSV-T5', 'parameter_invalid', 'color'],
    ]);
    expect(await imported(done.id, 'tags', 'tags', 'CSV-T1')).toMatchObject({
      name: 'Wholesale, West',
      color: '#00aa00',
    });
    expect((await imported(done.id, 'tags', 'tags', 'CSV-T2')).name).toBe('The "Big" one');
    // Tag names collapse whitespace (as over REST): the quoted line break is part of the cell.
    expect((await imported(done.id, 'tags', 'tags', 'CSV-T3')).name).toBe('Three, on two lines');
  });

  it('accounts: numbers typed by the create body, dotted headers for nested objects, empty cells absent', async () => {
    const csv = [
      'external_id,name,email,credit_limit,currency,metadata.legacy,metadata.region',
      'CSV-A1,CSV account one,one@csv.example,1250.5,eur,L-1,"North, East"',
      'CSV-A2,CSV account two,,,,L-2,',
      'CSV-A3,CSV account three,three@csv.example,lots,,,',
    ].join('\n');
    const done = await runCsv('accounts', csv);
    expect(await errorsOf(done.id)).toEqual([[4, 'CSV-A3', 'parameter_invalid', 'credit_limit']]);
    expect(done).toMatchObject({ status: 'completed_with_errors', total: 3, succeeded: 2, failed: 1 });
    expect(await imported(done.id, 'accounts', 'accounts', 'CSV-A1')).toMatchObject({
      name: 'CSV account one',
      email: 'one@csv.example',
      credit_limit: 1250.5,
      currency: 'EUR',
      metadata: { legacy: 'L-1', region: 'North, East' },
    });
    expect(await imported(done.id, 'accounts', 'accounts', 'CSV-A2')).toMatchObject({
      email: null,
      credit_limit: null,
      currency: 'USD',
      metadata: { legacy: 'L-2' },
    });
  });

  it('products: booleans, and array elements as indexed headers (variants.0.sku)', async () => {
    const sku = `CSVP-${Date.now()}`;
    const csv = [
      'external_id,sku,name,list_price,serial_tracked,variants.0.sku,variants.0.name,variants.0.options.color,variants.0.list_price',
      `CSV-P1,${sku}-1,CSV product one,19.99,true,${sku}-1-RED,Red,red,21`,
      `CSV-P2,${sku}-2,CSV product two,5,false,,,,`,
    ].join('\n');
    const done = await runCsv('products', csv);
    expect(await errorsOf(done.id)).toEqual([]);
    expect(done).toMatchObject({ status: 'completed', total: 2, succeeded: 2 });
    expect(await imported(done.id, 'products', 'products', 'CSV-P1')).toMatchObject({
      sku: `${sku}-1`,
      list_price: 19.99,
      serial_tracked: true,
      variants: [{ sku: `${sku}-1-RED`, name: 'Red', options: { color: 'red' }, list_price: 21 }],
    });
    const two = await imported(done.id, 'products', 'products', 'CSV-P2');
    expect(two).toMatchObject({ sku: `${sku}-2`, serial_tracked: false, variants: [] });
  });

  it('orders: lines.N.* columns; a row with fewer lines leaves the others empty', async () => {
    const accountId = app.seed.fixtures.account_id as string;
    const csv = [
      'external_id,status,account_id,notes,lines.0.description,lines.0.quantity,lines.0.unit_price,lines.1.description,lines.1.quantity,lines.1.unit_price',
      `CSV-O1,confirmed,${accountId},"Rush, ""gift""\nwrap",Widget,2,10.5,Gadget,1,4`,
      `CSV-O2,,${accountId},,Widget,5,10.5,,,`,
      `CSV-O3,,${accountId},,Widget,-1,10.5,,,`,
    ].join('\n');
    const done = await runCsv('orders', csv);
    expect(done).toMatchObject({ status: 'completed_with_errors', total: 3, succeeded: 2, failed: 1 });
    // CSV-O1 spans lines 2-3.
    expect(await errorsOf(done.id)).toEqual([[5, 'CSV-O3', 'parameter_invalid', 'lines[0].quantity']]);
    const one = await imported(done.id, 'orders', 'orders', 'CSV-O1');
    expect(one).toMatchObject({ order_status: 'confirmed', notes: 'Rush, "gift"\nwrap' });
    expect(
      one.lines.map((l: { description: string; quantity: number }) => [l.description, l.quantity]),
    ).toEqual([
      ['Widget', 2],
      ['Gadget', 1],
    ]);
    const two = await imported(done.id, 'orders', 'orders', 'CSV-O2');
    expect(two).toMatchObject({ order_status: 'draft' });
    expect(two.lines).toHaveLength(1);
  });

  it('journal entries: two lines per row', async () => {
    const fx = ledgerFixtures(app);
    const csv = [
      'external_id,entry_date,description,lines.0.account_id,lines.0.debit_amount,lines.1.account_id,lines.1.credit_amount',
      `CSV-JE1,${fx.openPeriod.start_date},CSV entry,${fx.accounts.expense},42.5,${fx.accounts.cash},42.5`,
      `CSV-JE2,${fx.openPeriod.start_date},CSV unbalanced,${fx.accounts.expense},10,${fx.accounts.cash},9`,
    ].join('\n');
    const done = await runCsv('journal_entries', csv);
    expect(done).toMatchObject({ status: 'completed_with_errors', total: 2, succeeded: 1, failed: 1 });
    expect(await errorsOf(done.id)).toEqual([[3, 'CSV-JE2', 'unbalanced_entry', 'lines']]);
    expect(await imported(done.id, 'journal_entries', 'journal-entries', 'CSV-JE1')).toMatchObject({
      description: 'CSV entry',
      status: 'posted',
      total_debit: 42.5,
      total_credit: 42.5,
    });
  });

  it('refuses malformed CSV with 400 parameter_invalid naming the line, and creates no import', async () => {
    // SQL: imports have no list route.
    const count = async () => Number((await app.db.query(`SELECT count(*) AS n FROM imports`)).rows[0].n);
    const before = await count();
    const unterminated = await upload(
      'tags',
      'external_id,name\nCSV-M1,ok\nCSV-M2,"never closed\nCSV-M3,x\n',
    );
    expectError(unterminated, 400, 'parameter_invalid', { param: 'body' });
    expect(unterminated.body.hint).toContain('line 3');
    const wide = await upload('tags', 'external_id,name\nCSV-M1,ok\nCSV-M2,too,many\n');
    expectError(wide, 400, 'parameter_invalid', { param: 'body' });
    expect(wide.body.hint).toContain('line 3');
    const stray = await upload('tags', 'external_id,name\nCSV-M1,"quoted"tail\n');
    expectError(stray, 400, 'parameter_invalid', { param: 'body' });
    expect(stray.body.hint).toContain('line 2');
    const header = await upload('tags', 'external_id,name,name\nCSV-M1,a,b\n');
    expectError(header, 400, 'parameter_invalid', { param: 'body' });
    expect(header.body.hint).toContain('line 1');
    expectError(await upload('tags', 'external_id,name\n'), 400, 'parameter_invalid', { param: 'body' });
    expect(await count()).toBe(before);
    // The rows staged before the malformed line are deleted with the refused upload.
    expect(await orphanImportRows(app)).toBe(0);
  });
});
