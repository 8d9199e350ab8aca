import { asEntity } from '../support/as-entity';
import fc from 'fast-check';
import { StockService } from '#contexts/inventory';
import { newId } from '#platform/persistence/ids';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { api } from '../support/http';
import { listAll } from '../support/list-all';
import { startTestApp, TestApp } from '../support/test-app';
import { Client, fixturesOf, ledgerMismatches, newLocation, newProduct } from './support';

type Op =
  | { kind: 'adjust'; at: 0 | 1; quantity: number; cost: number }
  | { kind: 'transfer'; from: 0 | 1; quantity: number }
  | { kind: 'receive'; at: 0 | 1; quantity: number }
  | { kind: 'ship'; at: 0 | 1; quantity: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('adjust' as const),
    at: fc.constantFrom(0 as const, 1 as const),
    quantity: fc.integer({ min: -6, max: 8 }).filter((q) => q !== 0),
    cost: fc.integer({ min: 0, max: 99999 }),
  }),
  fc.record({
    kind: fc.constant('transfer' as const),
    from: fc.constantFrom(0 as const, 1 as const),
    quantity: fc.integer({ min: 1, max: 5 }),
  }),
  fc.record({
    kind: fc.constant('receive' as const),
    at: fc.constantFrom(0 as const, 1 as const),
    quantity: fc.integer({ min: 1, max: 4 }),
  }),
  fc.record({
    kind: fc.constant('ship' as const),
    at: fc.constantFrom(0 as const, 1 as const),
    quantity: fc.integer({ min: 1, max: 4 }),
  }),
);

describe('inventory: random concurrent movements (property)', () => {
  let app: TestApp;
  let live: Client;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
  });
  afterAll(() => app.close());

  const asPrimary = <T>(fn: () => Promise<T>) => asEntity(app, () => app.get(TransactionHost).run(fn));

  it('keeps every balance equal to its ledger and never below zero', async () => {
    const second = await newLocation(live);
    const locations = [fixturesOf(app).locationId, second];
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 6, maxLength: 16 }), async (ops) => {
        const productId = await newProduct(live);
        const receives = ops.filter((o) => o.kind === 'receive');
        const po = await live
          .post('/v1/purchase-orders')
          .send({
            lines: receives
              .map((o) => ({ product_id: productId, quantity: o.quantity, unit_price: 2.5 }))
              .concat([{ product_id: productId, quantity: 1, unit_price: 1 }]),
          })
          .expect(201);
        await live.post(`/v1/purchase-orders/${po.body.id}/confirm`).send({}).expect(200);
        const order = await live
          .post('/v1/orders')
          .send({
            document_type: 'sales_order',
            account_id: app.seed.fixtures.account_id,
            lines: [{ product_id: productId, quantity: 100 }],
          })
          .expect(201);
        await live.post(`/v1/orders/${order.body.id}/confirm`).send({}).expect(200);
        let receiveIndex = 0;
        const statuses = await Promise.all(
          ops.map(async (o) => {
            if (o.kind === 'adjust') {
              const res = await live.post('/v1/inventory/adjustments').send({
                product_id: productId,
                location_id: locations[o.at],
                quantity: o.quantity,
                unit_cost: o.quantity > 0 ? o.cost / 100 : undefined,
                reason: 'property',
              });
              return res.status;
            }
            if (o.kind === 'transfer') {
              const res = await live.post('/v1/inventory/transfers').send({
                product_id: productId,
                from_location_id: locations[o.from],
                to_location_id: locations[1 - o.from],
                quantity: o.quantity,
              });
              return res.status;
            }
            if (o.kind === 'receive') {
              const line = po.body.lines[receiveIndex++];
              const res = await live.post(`/v1/purchase-orders/${po.body.id}/receive`).send({
                lines: [{ order_item_id: line.id, quantity: o.quantity, location_id: locations[o.at] }],
              });
              return res.status;
            }
            return asPrimary(() =>
              app.get(StockService).shipPackage({
                packageId: newId(),
                orderId: order.body.id,
                lines: [
                  {
                    orderItemId: order.body.lines[0].id,
                    productId,
                    locationId: locations[o.at],
                    quantity: o.quantity,
                  },
                ],
              }),
            ).then(
              () => 200,
              (e: { code?: string }) => (e.code === 'insufficient_stock' ? 422 : 500),
            );
          }),
        );
        for (const s of statuses) expect([200, 201, 422]).toContain(s);
        expect(await ledgerMismatches(app)).toEqual([]);
        const rows = await listAll<{ id: string; on_hand: number; allocated: number; on_order: number }>(
          live,
          `/v1/inventory/balances?product_id=${productId}`,
        );
        for (const r of rows) expect(r.on_hand).toBeGreaterThanOrEqual(0);
        const shipped = statuses.filter((s, i) => ops[i].kind === 'ship' && s === 200).length;
        const received = ops
          .filter((o, i) => o.kind === 'receive' && statuses[i] === 200)
          .reduce((n, o) => n + o.quantity, 0);
        const total = (k: 'allocated' | 'on_order') => rows.reduce((n, r) => n + Number(r[k]), 0);
        expect(total('on_order')).toBe(receives.reduce((n, o) => n + o.quantity, 0) + 1 - received);
        expect(total('allocated')).toBeLessThanOrEqual(100);
        // Nothing shipped: every allocation still stands.
        expect(shipped === 0 ? total('allocated') : 100).toBe(100);
      }),
      { numRuns: 6 },
    );
  });
});
