import { AdjustmentsService, StockMovementBatches, TransfersService } from '#contexts/inventory';
import { DomainError } from '#platform/errors/domain-error';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { asEntity } from '../support/as-entity';
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

  describe('the same outcome whichever way a request is written', () => {
    type Balance = { location_id: string; on_hand: number; value: number | null; unit_cost: number | null };
    /** An answer's fields these tests read: a movement's resource, or an error. */
    type Body = Partial<{
      id: string;
      object: string;
      type: string;
      quantity: number;
      counted_quantity: number | null;
      unit_cost: number | null;
      value: number | null;
      transaction_id: string | null;
      journal_entry_id: string | null;
      balance: Balance;
      from_balance: Balance;
      to_balance: Balance;
      code: string;
      param: string;
      hint: string;
    }>;
    type Outcome = { status: number; body: Body };
    type Ask = { kind: 'adjust' | 'transfer'; body: Record<string, unknown> };
    let elsewhere: string;

    beforeAll(async () => {
      elsewhere = await newLocation(live);
    });

    /**
     * Five requests, each on a product of its own stocked with 10 units at 3: a decrease of 4, a
     * count of 13 (3 more), a count of 10 (no change), a transfer of 4 and a decrease of 20 (refused).
     */
    const scenario = async (): Promise<{ products: string[]; asks: Ask[] }> => {
      const products: string[] = [];
      for (let i = 0; i < 5; i += 1) {
        const productId = await newProduct(live);
        await adjust({
          product_id: productId,
          location_id: locationId,
          quantity: 10,
          unit_cost: 3,
          reason: 'opening',
        }).expect(201);
        products.push(productId);
      }
      const [decreased, counted, unchanged, transferred, refused] = products;
      const at = { location_id: locationId, reason: 'compared' };
      return {
        products,
        asks: [
          { kind: 'adjust', body: { product_id: decreased, ...at, quantity: -4 } },
          { kind: 'adjust', body: { product_id: counted, ...at, counted_quantity: 13 } },
          { kind: 'adjust', body: { product_id: unchanged, ...at, counted_quantity: 10 } },
          {
            kind: 'transfer',
            body: {
              product_id: transferred,
              from_location_id: locationId,
              to_location_id: elsewhere,
              quantity: 4,
            },
          },
          { kind: 'adjust', body: { product_id: refused, ...at, quantity: -20 } },
        ],
      };
    };
    const send = (ask: Ask) => (ask.kind === 'adjust' ? adjust(ask.body) : transfer(ask.body));

    /** What a request's answer and its effects come to, without ids and times. */
    const balance = (b: Balance | undefined) => ({
      on_hand: b?.on_hand,
      value: b?.value,
      unit_cost: b?.unit_cost,
    });
    const shape = (o: Outcome) => {
      if (o.status !== 201)
        return { status: o.status, code: o.body.code, param: o.body.param, hint: o.body.hint };
      const b = o.body;
      const common = {
        status: o.status,
        object: b.object,
        quantity: b.quantity,
        unit_cost: b.unit_cost,
        value: b.value,
      };
      return b.object === 'inventory_transfer'
        ? {
            ...common,
            from: balance(b.from_balance),
            to: balance(b.to_balance),
            journal: b.journal_entry_id !== null,
          }
        : {
            ...common,
            type: b.type,
            counted_quantity: b.counted_quantity,
            balance: balance(b.balance),
            row: b.transaction_id !== null,
            journal: b.journal_entry_id !== null,
          };
    };
    const effects = async (products: string[], outcomes: Outcome[]) => {
      const ids = outcomes.filter((o) => o.status === 201).map((o) => o.body.id as string);
      const entries = await journalEntriesOf(
        app,
        ['INVENTORY_ADJUSTMENT', 'CYCLE_COUNT', 'INVENTORY_TRANSFER'],
        ids,
      );
      const events = [
        ...(await outbox(app).all('inventory.adjusted')),
        ...(await outbox(app).all('inventory.transferred')),
      ].filter((e) => ids.includes(e.data.object.id as string));
      return Promise.all(
        products.map(async (productId, i) => {
          const id = outcomes[i].body.id;
          const entry = entries.find((e) => e.source_id === id);
          return {
            rows: (await ledgerRowsOf(productId)).map((r) => r.quantity).sort((a, b) => a - b),
            balances: (
              (await live.get(`/v1/inventory/balances?product_id=${productId}`).expect(200)).body
                .data as Balance[]
            )
              .map((b) => ({ at: b.location_id === locationId ? 'here' : 'elsewhere', ...balance(b) }))
              .sort((a, b) => a.at.localeCompare(b.at)),
            entry: entry && {
              source_type: entry.source_type,
              total: entry.total_debit,
              credit: entry.total_credit,
              lines: entry.lines.length,
            },
            entryMatches: entry
              ? entry.id === outcomes[i].body.journal_entry_id
              : (outcomes[i].body.journal_entry_id ?? null),
            events: events.filter((e) => e.data.object.id === id).length,
          };
        }),
      );
    };

    /** The figures each request must come to, worked out by hand. */
    const expected = {
      shapes: [
        {
          status: 201,
          object: 'inventory_adjustment',
          type: 'adjustment',
          quantity: -4,
          counted_quantity: null,
          unit_cost: 3,
          value: -12,
          balance: { on_hand: 6, value: 18, unit_cost: 3 },
          row: true,
          journal: true,
        },
        {
          status: 201,
          object: 'inventory_adjustment',
          type: 'cycle_count',
          quantity: 3,
          counted_quantity: 13,
          unit_cost: 3,
          value: 9,
          balance: { on_hand: 13, value: 39, unit_cost: 3 },
          row: true,
          journal: true,
        },
        {
          status: 201,
          object: 'inventory_adjustment',
          type: 'cycle_count',
          quantity: 0,
          counted_quantity: 10,
          unit_cost: null,
          value: null,
          balance: { on_hand: 10, value: 30, unit_cost: 3 },
          row: false,
          journal: false,
        },
        {
          status: 201,
          object: 'inventory_transfer',
          quantity: 4,
          unit_cost: 3,
          value: 12,
          from: { on_hand: 6, value: 18, unit_cost: 3 },
          to: { on_hand: 4, value: 12, unit_cost: 3 },
          journal: true,
        },
        {
          status: 422,
          code: 'insufficient_stock',
          param: 'quantity',
          hint: expect.stringContaining('cannot leave'),
        },
      ],
      effects: [
        {
          rows: [-4, 10],
          balances: [{ at: 'here', on_hand: 6, value: 18, unit_cost: 3 }],
          entry: { source_type: 'INVENTORY_ADJUSTMENT', total: 12, credit: 12, lines: 2 },
          entryMatches: true,
          events: 1,
        },
        {
          rows: [3, 10],
          balances: [{ at: 'here', on_hand: 13, value: 39, unit_cost: 3 }],
          entry: { source_type: 'CYCLE_COUNT', total: 9, credit: 9, lines: 2 },
          entryMatches: true,
          events: 1,
        },
        {
          rows: [10],
          balances: [{ at: 'here', on_hand: 10, value: 30, unit_cost: 3 }],
          entry: undefined,
          entryMatches: null,
          events: 0,
        },
        {
          rows: [-4, 4, 10],
          balances: [
            { at: 'elsewhere', on_hand: 4, value: 12, unit_cost: 3 },
            { at: 'here', on_hand: 6, value: 18, unit_cost: 3 },
          ],
          entry: { source_type: 'INVENTORY_TRANSFER', total: 12, credit: 12, lines: 2 },
          entryMatches: true,
          events: 1,
        },
        {
          rows: [10],
          balances: [{ at: 'here', on_hand: 10, value: 30, unit_cost: 3 }],
          entry: undefined,
          entryMatches: null,
          events: 0,
        },
      ],
    };
    const expectOutcomes = async (products: string[], outcomes: Outcome[]) => {
      expect(outcomes.map(shape)).toEqual(expected.shapes);
      expect(await effects(products, outcomes)).toEqual(expected.effects);
      expect(await ledgerMismatches(app)).toEqual([]);
    };
    const writtenIds = (outcomes: Outcome[]) =>
      outcomes
        .filter((o) => o.status === 201 && o.body.transaction_id !== null)
        .map((o) => o.body.id as string);

    it('in a batch shared with other requests', async () => {
      const { products, asks } = await scenario();
      const outcomes = await whileBatchHeld(() => asks.map(send));
      await expectOutcomes(products, outcomes);
      expect(await transactionsWritingLedgerRowsOf(app, writtenIds(outcomes))).toBe(1);
      await expectGaplessNumbers();
    });

    it("in its caller's transaction", async () => {
      const { products, asks } = await scenario();
      const adjustments = app.get(AdjustmentsService);
      const transfers = app.get(TransfersService);
      const inCallerTransaction = () =>
        asEntity(app, () =>
          app.get(TransactionHost).run(async () => {
            const answers: Outcome[] = [];
            for (const ask of asks) {
              try {
                const resource =
                  ask.kind === 'adjust'
                    ? await adjustments.create(ask.body as never)
                    : await transfers.create(ask.body as never);
                answers.push({ status: 201, body: JSON.parse(JSON.stringify(resource)) });
              } catch (error) {
                if (!(error instanceof DomainError)) throw error;
                answers.push({
                  status: error.status,
                  body: { code: error.code, param: error.param, hint: error.hint },
                });
              }
            }
            return answers;
          }),
        );
      // While a batch of the entity is held on a locked balance, the requests of a caller's
      // transaction are written there at once: they join no batch of other requests.
      const holder = await newProduct(live);
      await adjust({
        product_id: holder,
        location_id: locationId,
        quantity: 1,
        unit_cost: 1,
        reason: 'holder',
      }).expect(201);
      const lock = await lockInventoryBalancesOf(app, holder);
      let outcomes: Outcome[];
      try {
        const held = adjust({
          product_id: holder,
          location_id: locationId,
          quantity: 1,
          unit_cost: 1,
          reason: 'held',
        }).then((r) => r);
        await lock.waitForWaiters(1);
        let timer: NodeJS.Timeout | undefined;
        const waited = new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error("the caller's transaction waited for the held batch")),
            10_000,
          );
        });
        outcomes = await Promise.race([inCallerTransaction(), waited]).finally(() => clearTimeout(timer));
        await lock.release();
        expect((await held).status).toBe(201);
      } finally {
        await lock.release();
      }
      await expectOutcomes(products, outcomes);
      // All of them in the caller's one transaction.
      expect(await transactionsWritingLedgerRowsOf(app, writtenIds(outcomes))).toBe(1);
      await expectGaplessNumbers();
    });

    it('again on its own after the batch it shared failed', async () => {
      const { products, asks } = await scenario();
      const failing = await newProduct(live);
      const reason = `fails-${Date.now()}`;
      const fault = await failInventoryRowsWithReason(app, { productId: failing, reason });
      try {
        await adjust({
          product_id: failing,
          location_id: locationId,
          quantity: 5,
          unit_cost: 1,
          reason: 'opening',
        }).expect(201);
        const before = await fault.attempts();
        const outcomes = await whileBatchHeld(() => [
          ...asks.map(send),
          adjust({ product_id: failing, location_id: locationId, quantity: -1, reason }),
        ]);
        expect(outcomes[5].status).toBe(500);
        // The shared batch reached the failing row, then each request was written on its own.
        expect((await fault.attempts()) - before).toBe(2);
        await expectOutcomes(products, outcomes.slice(0, 5));
        const ids = writtenIds(outcomes.slice(0, 5));
        expect(await transactionsWritingLedgerRowsOf(app, ids)).toBe(ids.length);
        await expectGaplessNumbers();
      } finally {
        await fault.remove();
      }
    });
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
