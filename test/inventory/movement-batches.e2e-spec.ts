import { StockMovementBatches } from '#contexts/inventory';
import {
  failInventoryRowsWithReason,
  lockInventoryBalancesOf,
  transactionsWritingLedgerRowsOf,
} from '../support/db-faults';
import { waitFor } from '../support/eventually';
import { api, expectError } from '../support/http';
import { allJournalEntries, journalEntriesOf } from '../support/journal';
import { listAll } from '../support/list-all';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';
import { Client, fixturesOf, ledgerMismatches, newLocation, newProduct } from './support';

/**
 * Concurrent adjustments and transfers of one entity share a transaction (group commit): each
 * request keeps its own outcome, its own posting and its own events.
 */
describe('inventory: movements of concurrent requests written together', () => {
  let app: TestApp;
  let live: Client;
  let locationId: string;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    locationId = fixturesOf(app).locationId;
  });
  afterAll(() => app.close());

  const adjust = (body: Record<string, unknown>) => live.post('/v1/inventory/adjustments').send(body);
  const transfer = (body: Record<string, unknown>) => live.post('/v1/inventory/transfers').send(body);
  type Reply = Awaited<ReturnType<typeof adjust>>;

  /** The journal entries of adjustments and transfers, through the journal-entries API. */
  const entriesOf = (sourceIds: string[]) =>
    journalEntriesOf(app, ['INVENTORY_ADJUSTMENT', 'INVENTORY_TRANSFER'], sourceIds);

  /** The ledger rows of a product (optionally at one location), through the transactions API. */
  const ledgerRowsOf = (productId: string, at?: string) =>
    listAll<{ id: string; source_id: string; quantity: number; reason: string | null }>(
      live,
      `/v1/inventory/transactions?product_id=${productId}${at ? `&location_id=${at}` : ''}`,
    );

  /**
   * Runs `requests` while the entity's current batch is held: a movement of another product waits
   * on a balance the test keeps locked, so the requests sent meanwhile queue up and are written
   * together in the next batch once the lock is released. It waits for the held movement to be
   * blocked on the lock, then for every request to have joined the queue behind it.
   */
  const whileBatchHeld = async (requests: () => ReturnType<typeof adjust>[]): Promise<Reply[]> => {
    const holder = await newProduct(live);
    await adjust({
      product_id: holder,
      location_id: locationId,
      quantity: 1,
      unit_cost: 1,
      reason: 'holder',
    }).expect(201);
    const submitted = jest.spyOn(app.get(StockMovementBatches), 'submit');
    const lock = await lockInventoryBalancesOf(app, holder);
    try {
      const held = adjust({
        product_id: holder,
        location_id: locationId,
        quantity: 1,
        unit_cost: 1,
        reason: 'held',
      }).then((r) => r);
      await lock.waitForWaiters(1);
      const pending = requests();
      const sent = Promise.all(pending);
      await waitFor(() => submitted.mock.calls.length >= 1 + pending.length, {
        label: `${pending.length} movements queued behind the held batch`,
      });
      await lock.release();
      expect((await held).status).toBe(201);
      return await sent;
    } finally {
      await lock.release();
      submitted.mockRestore();
    }
  };

  /** Every live entry number of the entity is distinct and they run without a gap. */
  const expectGaplessNumbers = async () => {
    const entries = await allJournalEntries(live);
    const numbers = entries.map((e) => Number(String(e.entry_number).slice(-6))).sort((a, b) => a - b);
    expect(entries.filter((e) => String(e.entry_number).startsWith('pending-'))).toEqual([]);
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(numbers[numbers.length - 1] - numbers[0]).toBe(numbers.length - 1);
  };

  it('answers a request refused for stock with its 422 while the others of its batch commit', async () => {
    const productId = await newProduct(live);
    const elsewhere = await newLocation(live);
    await adjust({
      product_id: productId,
      location_id: locationId,
      quantity: 10,
      unit_cost: 3,
      reason: 'opening',
    }).expect(201);
    // 12 requests at once: 4 × −3 adjustments and 4 transfers of 1 out of 10 units, plus 4 increases
    // elsewhere. Whatever the order, some outgoing requests must be refused.
    const requests = () => [
      ...Array.from({ length: 4 }, (_, i) =>
        adjust({ product_id: productId, location_id: locationId, quantity: -3, reason: `out ${i}` }),
      ),
      ...Array.from({ length: 4 }, () =>
        transfer({
          product_id: productId,
          from_location_id: locationId,
          to_location_id: elsewhere,
          quantity: 1,
        }),
      ),
      ...Array.from({ length: 4 }, (_, i) =>
        adjust({
          product_id: productId,
          location_id: elsewhere,
          quantity: 2,
          unit_cost: 5,
          reason: `in ${i}`,
        }),
      ),
    ];
    const results = await whileBatchHeld(requests);
    const outgoing = results.slice(0, 8);
    const refused = outgoing.filter((r) => r.status === 422);
    const accepted = results.filter((r) => r.status === 201);
    expect(refused.length + accepted.length).toBe(12);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expectError(r, 422, 'insufficient_stock', { param: 'quantity' });
      expect(r.body.hint).toContain('cannot leave');
    }
    // The increases elsewhere are never refused.
    expect(results.slice(8).map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const leftA = outgoing.reduce((n, r, i) => (r.status === 201 ? n - (i < 4 ? 3 : 1) : n), 10);
    expect(leftA).toBeGreaterThanOrEqual(0);
    const balances = (await live.get(`/v1/inventory/balances?product_id=${productId}`).expect(200)).body
      .data as { location_id: string; on_hand: number }[];
    expect(balances.find((b) => b.location_id === locationId)!.on_hand).toBe(leftA);
    const transfersIn = outgoing.slice(4).filter((r) => r.status === 201).length;
    expect(balances.find((b) => b.location_id === elsewhere)!.on_hand).toBe(8 + transfersIn);
    expect(await ledgerMismatches(app)).toEqual([]);

    // Each accepted request has its ledger rows, its balanced entry and its event; a refused one has none.
    const ids = accepted.map((r) => r.body.id as string);
    const entries = await entriesOf(ids);
    expect(entries).toHaveLength(accepted.length);
    const sum = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) * 1e4) / 1e4;
    for (const e of entries) {
      expect(e.total_debit).toBe(e.total_credit);
      expect(sum(e.lines.map((l) => l.debit_amount))).toBe(e.total_debit);
      expect(sum(e.lines.map((l) => l.credit_amount))).toBe(e.total_credit);
    }
    expect(new Set(accepted.map((r) => r.body.journal_entry_id))).toEqual(new Set(entries.map((e) => e.id)));
    const events = [
      ...(await outbox(app).all('inventory.adjusted')),
      ...(await outbox(app).all('inventory.transferred')),
    ].filter((e) => ids.includes(e.data.object.id as string));
    expect(events.map((e) => e.data.object.id).sort()).toEqual([...ids].sort());
    const transfersAccepted = accepted.filter((r) => r.body.object === 'inventory_transfer').length;
    expect(await ledgerRowsOf(productId)).toHaveLength(1 + accepted.length + transfersAccepted);
    // They were written together, in one transaction (group commit).
    expect(await transactionsWritingLedgerRowsOf(app, ids)).toBe(1);
    // Each response shows its balance as its own movement left it, in the order they were written.
    expect(await ledgerRowsOf(productId, elsewhere)).toHaveLength(4 + transfersIn);
    const finalElsewhere = accepted
      .map((r) => (r.body.object === 'inventory_transfer' ? r.body.to_balance : r.body.balance))
      .filter((b) => b.location_id === elsewhere)
      .map((b) => b.on_hand as number);
    expect(Math.max(...finalElsewhere)).toBe(8 + transfersIn);
    expect(new Set(finalElsewhere).size).toBe(finalElsewhere.length);
    await expectGaplessNumbers();
  });

  it('writes each request again alone when its batch fails in the database', async () => {
    const productId = await newProduct(live);
    const reason = `fails-${Date.now()}`;
    // A row with this reason cannot be written: the batch holding it fails as a whole. The
    // fault counts the attempts to write a row of the product (rolled back or not).
    const fault = await failInventoryRowsWithReason(app, { productId, reason });
    try {
      await adjust({
        product_id: productId,
        location_id: locationId,
        quantity: 20,
        unit_cost: 2,
        reason: 'opening',
      }).expect(201);
      const before = await fault.attempts();
      const results = await whileBatchHeld(() =>
        Array.from({ length: 9 }, (_, i) =>
          adjust({
            product_id: productId,
            location_id: locationId,
            quantity: -1,
            reason: i === 4 ? reason : `ok ${i}`,
          }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 500, 201, 201, 201, 201]);
      // One batch of the nine failed at its fifth row, then each request was written alone.
      expect((await fault.attempts()) - before).toBe(5 + 9);
      const ok = results.filter((r) => r.status === 201);
      expect(
        await transactionsWritingLedgerRowsOf(
          app,
          ok.map((r) => r.body.id),
        ),
      ).toBe(8);
      const balance = (await live.get(`/v1/inventory/balances?product_id=${productId}`).expect(200)).body
        .data[0];
      expect(balance.on_hand).toBe(12);
      expect(await ledgerMismatches(app)).toEqual([]);
      const rows = await ledgerRowsOf(productId);
      expect(rows.filter((r) => r.reason === reason)).toEqual([]);
      expect(rows.filter((r) => r.reason?.startsWith('ok '))).toHaveLength(8);
      expect(await entriesOf(ok.map((r) => r.body.id))).toHaveLength(8);
      await expectGaplessNumbers();
    } finally {
      await fault.remove();
    }
  });

  it('keeps Idempotency-Key per request inside a batch', async () => {
    const productId = await newProduct(live);
    const keys = Array.from({ length: 6 }, (_, i) => `batch-${Date.now()}-${i}`);
    const body = (i: number) => ({
      product_id: productId,
      location_id: locationId,
      quantity: i + 1,
      unit_cost: 1,
      reason: `key ${i}`,
    });
    const first = await Promise.all(
      keys.map((k, i) => live.post('/v1/inventory/adjustments').set('Idempotency-Key', k).send(body(i))),
    );
    expect(first.map((r) => r.status)).toEqual(Array(6).fill(201));
    const again = await Promise.all(
      keys.map((k, i) => live.post('/v1/inventory/adjustments').set('Idempotency-Key', k).send(body(i))),
    );
    again.forEach((r, i) => {
      expect(r.status).toBe(201);
      expect(r.headers['idempotent-replayed']).toBe('true');
      expect(r.body.id).toBe(first[i].body.id);
    });
    const balance = (await live.get(`/v1/inventory/balances?product_id=${productId}`).expect(200)).body
      .data[0];
    expect(balance.on_hand).toBe(21);
    expect(await ledgerMismatches(app)).toEqual([]);
  });

  it('leaves no balance behind for a refused movement of a product never stocked there', async () => {
    const productId = await newProduct(live);
    const elsewhere = await newLocation(live);
    const [moved, refused] = await whileBatchHeld(() => [
      adjust({ product_id: productId, location_id: locationId, quantity: 2, unit_cost: 1, reason: 'in' }),
      transfer({
        product_id: productId,
        from_location_id: elsewhere,
        to_location_id: locationId,
        quantity: 1,
      }),
    ]);
    expect(moved.status).toBe(201);
    expectError(refused, 422, 'insufficient_stock', { param: 'quantity' });
    const balances = (await live.get(`/v1/inventory/balances?product_id=${productId}`).expect(200)).body
      .data as { location_id: string; on_hand: number }[];
    expect(balances.map((b) => ({ location_id: b.location_id, on_hand: b.on_hand }))).toEqual([
      { location_id: locationId, on_hand: 2 },
    ]);
    expect(await ledgerMismatches(app)).toEqual([]);
  });

  it('answers 400s and 404s before a request joins a batch', async () => {
    const productId = await newProduct(live);
    const results = await Promise.all([
      adjust({
        product_id: productId,
        location_id: '00000000-0000-4000-8000-000000000001',
        quantity: 1,
        reason: 'x',
      }),
      transfer({
        product_id: '00000000-0000-4000-8000-000000000002',
        from_location_id: locationId,
        to_location_id: locationId,
        quantity: 1,
      }),
      adjust({ product_id: productId, location_id: locationId, quantity: -1, unit_cost: 2, reason: 'x' }),
      adjust({
        product_id: productId,
        location_id: locationId,
        quantity: 1,
        reason: 'x',
        serial_numbers: ['S1'],
      }),
      adjust({ product_id: productId, location_id: locationId, quantity: 1, reason: 'ok' }),
    ]);
    expectError(results[0], 400, 'parameter_invalid', { param: 'location_id' });
    expectError(results[1], 400, 'parameter_invalid', { param: 'to_location_id' });
    expectError(results[2], 400, 'parameter_invalid', { param: 'unit_cost' });
    expectError(results[3], 400, 'parameter_invalid', { param: 'serial_numbers' });
    expect(results[4].status).toBe(201);
  });
});
