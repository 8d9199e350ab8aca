import { INestApplicationContext } from '@nestjs/common';
import { api } from '../support/http';
import { startDispatcher } from '../support/dispatcher';
import { LONG_WAIT, waitFor } from '../support/eventually';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';
import { mappedExternalIds, orderCountOf } from './support/imported-rows';
import { importErrors, rowErrorsOf } from './support/import-errors';
import { watchImporter } from './support/watched-importer';

const FINISHED = ['completed', 'completed_with_errors', 'failed'];
const UNKNOWN_UUID = '0196a0b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b';

describe('bulk imports of orders', () => {
  let app: TestApp;
  let worker: INestApplicationContext;
  let entityId: string;
  let base: string;
  let migration: ReturnType<typeof api>;
  let live: ReturnType<typeof api>;
  let accountId: string;
  let productId: string;

  beforeAll(async () => {
    app = await startTestApp();
    entityId = app.seed.entities.primary.id;
    base = `/v1/entities/${entityId}/migration/imports`;
    migration = api(app, app.seed.entities.primary.keys.migration);
    live = api(app, app.seed.entities.primary.keys.live);
    productId = app.seed.fixtures.product_id as string;
    accountId = (await live.post('/v1/accounts').send({ name: 'Imported orders customer' }).expect(201)).body
      .id;
    worker = await startDispatcher(app);
  });
  afterAll(async () => {
    await worker?.close();
    await app.close();
  });

  /** The latest import of orders: the mapping read needs an import of the entity to lock. */
  let lastImportId: string;
  const runImport = async (records: unknown[]) => {
    const created = await migration.post(base).send({ resource: 'orders', records }).expect(201);
    lastImportId = created.body.id;
    return waitFor(async () => {
      const res = await migration.get(`${base}/${created.body.id}`).expect(200);
      return FINISHED.includes(res.body.status) && res.body;
    }, LONG_WAIT);
  };
  const errorsOf = (importId: string) => importErrors(migration, base, importId);
  const rowErrors = (importId: string) => rowErrorsOf(migration, base, importId);
  const lastEventId = async () =>
    (await outbox(app).all()).at(-1)?.id ?? '00000000-0000-0000-0000-000000000000';
  /** Order and invoice events of the entity since `since`, counted by type. */
  const eventCounts = async (since: string) => {
    const counts = new Map<string, number>();
    for (const e of await outbox(app).all())
      if (e.id > since && /^(order|invoice)\./.test(e.type))
        counts.set(e.type, (counts.get(e.type) ?? 0) + 1);
    return [...counts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([type, n]) => ({ type, n }));
  };
  // Orders of every document type (the list route shows quotes, sales orders and invoices only).
  const orderCount = () => orderCountOf(app, accountId);
  const orderOf = async (externalId: string) => {
    // The external-id map of imports has no route.
    const found = await mappedExternalIds(app, lastImportId, 'orders', [externalId]);
    expect(found.has(externalId)).toBe(true);
    return (await live.get(`/v1/orders/${found.get(externalId)}`).expect(200)).body;
  };
  const invoiceEntries = async (orderId: string) =>
    (
      (await live.get('/v1/journal-entries?source_type=INVOICE&limit=100').expect(200)).body.data as {
        source_id: string;
        status: string;
        total_debit: number;
      }[]
    )
      .filter((e) => e.source_id === orderId)
      .map((e) => ({ status: e.status, total: e.total_debit }));

  const records = () => [
    {
      external_id: 'ORD-1',
      account_id: accountId,
      lines: [{ product_id: productId, quantity: 2 }],
      metadata: { legacy: 'SO-1' },
    },
    { external_id: 'ORD-2', account_id: accountId, lines: [{ product_id: UNKNOWN_UUID, quantity: 1 }] },
    { external_id: 'ORD-3', account_id: accountId, lines: [{ product_id: productId, quantity: 0 }] },
    {
      external_id: 'INV-1',
      document_type: 'invoice',
      status: 'confirmed',
      account_id: accountId,
      lines: [{ description: 'Legacy service', quantity: 3, unit_price: 40, tax_rate: 10 }],
    },
    {
      external_id: 'ORD-5',
      account_id: accountId,
      status: 'posted',
      lines: [{ product_id: productId, quantity: 1 }],
    },
    { external_id: 'ORD-6', account_id: accountId, status: 'confirmed' },
    {
      external_id: 'ORD-7',
      document_type: 'quote',
      account_id: accountId,
      notes: 'imported quote',
      lines: [{ product_id: productId, quantity: 1 }],
    },
  ];

  it('creates orders through OrdersService with row errors for bad rows; confirmed invoices are issued once; re-running creates nothing', async () => {
    const since = await lastEventId();
    const done = await runImport(records());
    expect(done).toMatchObject({
      resource: 'orders',
      status: 'completed_with_errors',
      total: 7,
      succeeded: 3,
      failed: 4,
    });
    expect(await rowErrors(done.id)).toEqual([
      [2, 'ORD-2', 'parameter_invalid', 'lines[0].product_id'],
      [3, 'ORD-3', 'parameter_invalid', 'lines[0].quantity'],
      [5, 'ORD-5', 'parameter_invalid', 'status'],
      [6, 'ORD-6', 'invalid_state', 'lines'],
    ]);
    expect(await orderCount()).toBe(3);

    // Priced and totalled as POST /orders would: the draft sales order, the issued invoice.
    const ord1 = await orderOf('ORD-1');
    const product = (await live.get(`/v1/products/${productId}`).expect(200)).body;
    expect(ord1).toMatchObject({
      document_type: 'sales_order',
      order_status: 'draft',
      metadata: { legacy: 'SO-1' },
    });
    expect(ord1.lines).toMatchObject([{ product_id: productId, quantity: 2, description: product.name }]);
    const inv1 = await orderOf('INV-1');
    expect(inv1).toMatchObject({
      document_type: 'invoice',
      order_status: 'confirmed',
      subtotal: 120,
      tax_total: 12,
      total: 132,
      amount_due: 132,
    });
    expect(await invoiceEntries(inv1.id)).toEqual([{ status: 'posted', total: 132 }]);
    const [event] = (await outbox(app).eventsOf(ord1.id)).filter((e) => e.type === 'order.created');
    expect(event.data.object).toEqual(ord1);
    const events = [
      { type: 'invoice.created', n: 1 },
      { type: 'invoice.finalized', n: 1 },
      { type: 'order.confirmed', n: 1 },
      { type: 'order.created', n: 3 },
    ];
    // ORD-6 was created then refused by confirm: its row was rolled back, events included.
    expect(await eventCounts(since)).toEqual(events);

    const again = await runImport(records());
    expect(again).toMatchObject({ status: 'completed_with_errors', succeeded: 3, failed: 4 });
    expect(await orderCount()).toBe(3);
    expect(await eventCounts(since)).toEqual(events);
    expect(await invoiceEntries(inv1.id)).toHaveLength(1);
    expect((await orderOf('ORD-1')).lines[0].id).toBe(ord1.lines[0].id);
  });

  it('updates a draft through the service and confirms it on request; an order past draft refuses different content', async () => {
    const since = await lastEventId();
    const ord1 = await orderOf('ORD-1');
    const inv1 = await orderOf('INV-1');
    const done = await runImport([
      {
        external_id: 'ORD-1',
        status: 'confirmed',
        account_id: accountId,
        lines: [{ product_id: productId, quantity: 5, unit_price: 10 }],
        notes: 'migrated',
      },
      {
        external_id: 'INV-1',
        document_type: 'invoice',
        account_id: accountId,
        lines: [{ description: 'Legacy service', quantity: 4, unit_price: 40, tax_rate: 10 }],
      },
      {
        external_id: 'ORD-7',
        document_type: 'sales_order',
        account_id: accountId,
        lines: [{ product_id: productId, quantity: 1 }],
      },
    ]);
    expect(done).toMatchObject({ status: 'completed_with_errors', succeeded: 1, failed: 2 });
    const errors = await errorsOf(done.id);
    expect(errors.map((e) => [e.row, e.external_id, e.error.code, e.error.param])).toEqual([
      [2, 'INV-1', 'invalid_state', undefined],
      [3, 'ORD-7', 'parameter_invalid', 'document_type'],
    ]);
    expect(errors[0].error).toMatchObject({
      order_status: 'confirmed',
      hint: expect.stringContaining("order_status is 'confirmed'"),
    });

    const updated = await orderOf('ORD-1');
    expect(updated).toMatchObject({
      id: ord1.id,
      order_status: 'confirmed',
      notes: 'migrated',
      total: 50,
      metadata: { legacy: 'SO-1' },
    });
    expect(updated.lines).toMatchObject([{ quantity: 5, unit_price: 10 }]);
    expect((await orderOf('INV-1')).total).toBe(inv1.total);
    expect(await invoiceEntries(inv1.id)).toHaveLength(1);
    expect(await orderCount()).toBe(3);
    expect(await eventCounts(since)).toEqual([
      { type: 'order.confirmed', n: 1 },
      { type: 'order.updated', n: 1 },
    ]);
  });

  it('creates a batch of new drafts together, priced as POST /orders, one event each; bad rows are reported by line; confirmed rows go one by one', async () => {
    const customer = (await live.post('/v1/accounts').send({ name: 'Bulk orders customer' }).expect(201)).body
      .id as string;
    const policy = (
      await live
        .post('/v1/pricing-policies')
        .send({ name: 'Bulk 20%', kind: 'percentage_off', value: 20, account_id: customer })
        .expect(201)
    ).body;
    const linesOf = (row: number) => [
      { product_id: productId, quantity: row },
      { description: 'Handling', quantity: 1, unit_price: 2.5, tax_rate: 10 },
    ];
    const rest = (
      await live
        .post('/v1/orders')
        .send({ account_id: customer, lines: linesOf(3) })
        .expect(201)
    ).body;
    const since = await lastEventId();
    const records = Array.from({ length: 30 }, (_, i) => {
      const row = i + 1;
      const good = {
        external_id: `BULK-${row}`,
        account_id: customer,
        notes: `bulk ${row}`,
        lines: linesOf(row),
      };
      if (row === 5) return { ...good, document_type: 'invoice' };
      if (row === 6) return { ...good, document_type: 'quote' };
      if (row === 8) return { ...good, account_id: UNKNOWN_UUID };
      if (row === 12) return { ...good, currency: 'EUR' };
      if (row === 16) return { ...good, lines: [{ product_id: UNKNOWN_UUID, quantity: 1 }] };
      if (row === 20) return { ...good, lines: [good.lines[0], { quantity: 1, unit_price: 3 }] };
      if (row === 24) return { ...good, status: 'confirmed' };
      if (row === 28) {
        const { account_id: _none, ...purchase } = good;
        return { ...purchase, document_type: 'purchase_order' };
      }
      return good;
    });
    // The batch must go through the bulk path; only the order to confirm (row 24) goes one by one.
    const {
      result: done,
      bulkSizes,
      upserts,
    } = await watchImporter(worker, 'orders', () => runImport(records));
    expect(bulkSizes).toEqual([29]);
    expect(upserts).toBe(1);
    expect(done).toMatchObject({ status: 'completed_with_errors', total: 30, succeeded: 26, failed: 4 });
    expect(await rowErrors(done.id)).toEqual([
      [8, 'BULK-8', 'parameter_invalid', 'account_id'],
      [12, 'BULK-12', 'parameter_invalid', 'currency'],
      [16, 'BULK-16', 'parameter_invalid', 'lines[0].product_id'],
      [20, 'BULK-20', 'parameter_missing', 'lines[1].description'],
    ]);
    // 25 imported for the customer (the purchase order has no account), and the one made over REST.
    expect(await orderCountOf(app, customer)).toBe(26);

    // Priced, totalled and shown as POST /orders makes them (the account's policy applied).
    const strip = ({
      id: _id,
      order_id: _order,
      created_at: _c,
      updated_at: _u,
      ...line
    }: Record<string, unknown>) => line;
    const bulk3 = await orderOf('BULK-3');
    expect(bulk3.lines.map(strip)).toEqual(rest.lines.map(strip));
    expect(bulk3.lines[0].pricing_policy_id).toBe(policy.id);
    for (const field of [
      'subtotal',
      'discount_total',
      'tax_total',
      'total',
      'amount_due',
      'currency',
      'order_status',
    ])
      expect([field, bulk3[field]]).toEqual([field, rest[field]]);
    expect(bulk3.notes).toBe('bulk 3');
    const invoice = await orderOf('BULK-5');
    expect(invoice).toMatchObject({ document_type: 'invoice', order_status: 'draft' });
    expect((await orderOf('BULK-6')).document_type).toBe('quote');
    expect((await orderOf('BULK-24')).order_status).toBe('confirmed');
    const purchase = await orderOf('BULK-28');
    expect(purchase).toMatchObject({ document_type: 'purchase_order', account_id: null });

    // One order.created per order (invoice.created for the invoice, the purchasing companion for
    // the purchase order), each carrying the order as GET shows it.
    const events = [
      { type: 'invoice.created', n: 1 },
      { type: 'order.confirmed', n: 1 },
      { type: 'order.created', n: 26 },
    ];
    expect(await eventCounts(since)).toEqual(events);
    const created = (await outbox(app).eventsOf(invoice.id)).filter((e) => e.type.endsWith('.created'));
    expect(created.map((e) => e.type).sort()).toEqual(['invoice.created', 'order.created']);
    for (const e of created) expect(e.data.object).toEqual(invoice);
    expect((await outbox(app).eventsOf(purchase.id)).map((e) => e.type).sort()).toEqual([
      'order.created',
      'purchasing.purchase_order.created',
    ]);

    // The same import again creates nothing and emits nothing.
    const again = await runImport(records);
    expect(again).toMatchObject({ succeeded: 26, failed: 4 });
    expect(await orderCountOf(app, customer)).toBe(26);
    expect(await eventCounts(since)).toEqual(events);
    expect((await orderOf('BULK-3')).lines[0].id).toBe(bulk3.lines[0].id);
  });

  it('holds imported orders to the 1,000-line cap of every route that adds lines', async () => {
    const linesOf = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ description: `Cap line ${i}`, quantity: 1, unit_price: 0.1 }));
    const before = await orderCount();
    const done = await runImport([
      { external_id: 'CAP-1', account_id: accountId, lines: linesOf(1001) },
      { external_id: 'CAP-2', account_id: accountId, status: 'confirmed', lines: linesOf(1001) },
      { external_id: 'CAP-3', account_id: accountId, lines: linesOf(1000) },
    ]);
    expect(done).toMatchObject({ status: 'completed_with_errors', total: 3, succeeded: 1, failed: 2 });
    expect(await rowErrors(done.id)).toEqual([
      [1, 'CAP-1', 'parameter_invalid', 'lines'],
      [2, 'CAP-2', 'parameter_invalid', 'lines'],
    ]);
    expect(await orderCount()).toBe(before + 1);
    const full = await orderOf('CAP-3');
    expect(full.lines).toHaveLength(1000);
    // 1,000 lines of 0.1.
    expect(full.total).toBe(100);
  });

  it('gives an imported kit line its component lines as POST /orders does, in a bulk batch and one by one', async () => {
    const product = async (sku: string, type = 'standard') =>
      (
        await live
          .post('/v1/products')
          .send({ sku: `${sku}-${Date.now().toString(36)}`, name: sku, type, list_price: 10 })
          .expect(201)
      ).body.id as string;
    const kit = await product('KIT', 'kit');
    const [part1, part2] = [await product('PART-1'), await product('PART-2')];
    for (const [component, quantity] of [
      [part1, 2],
      [part2, 3],
    ] as const)
      await live
        .post(`/v1/products/${kit}/components`)
        .send({ component_product_id: component, quantity })
        .expect(201);
    const lines = [
      { product_id: kit, quantity: 2 },
      { description: 'Handling', quantity: 1, unit_price: 2.5 },
    ];
    const shapeOf = (order: {
      subtotal: number;
      lines: {
        id: string;
        product_id: string | null;
        parent_line_id: string | null;
        quantity: number;
        unit_price: number;
      }[];
    }) => ({
      subtotal: order.subtotal,
      lines: order.lines.map((l) => ({
        product_id: l.product_id,
        parent: l.parent_line_id === null ? null : order.lines.findIndex((p) => p.id === l.parent_line_id),
        quantity: l.quantity,
        unit_price: l.unit_price,
      })),
    });
    const viaApi = (await live.post('/v1/orders').send({ account_id: accountId, lines }).expect(201)).body;
    expect(shapeOf(viaApi).lines).toEqual([
      { product_id: kit, parent: null, quantity: 2, unit_price: 10 },
      { product_id: part1, parent: 0, quantity: 4, unit_price: 0 },
      { product_id: part2, parent: 0, quantity: 6, unit_price: 0 },
      { product_id: null, parent: null, quantity: 1, unit_price: 2.5 },
    ]);

    const records = ['KIT-A', 'KIT-B', 'KIT-C'].map((external_id) => ({
      external_id,
      account_id: accountId,
      lines,
    }));
    records[2] = { ...records[2], status: 'confirmed' } as (typeof records)[number];
    const { result: done, bulkSizes } = await watchImporter(worker, 'orders', () => runImport(records));
    expect(done).toMatchObject({ status: 'completed', succeeded: 3 });
    expect(bulkSizes).toEqual([2]);
    for (const externalId of ['KIT-A', 'KIT-B', 'KIT-C'])
      expect(shapeOf(await orderOf(externalId))).toEqual(shapeOf(viaApi));
  });
});
