import Decimal from 'decimal.js';
import fc from 'fast-check';
import { CollectionsService } from '#contexts/sales';
import { OperatorService } from '#platform/auth/operator.service';
import { api } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * A model-based test of order to cash. fast-check generates short random sequences of real HTTP
 * operations (orders of several lines and products, partial and full packages from two locations,
 * invoices before and after shipping, partial and full payments, bank deposits, returns received
 * and refunded, invoice voids, order cancellations, storefront imports and their payouts, late
 * fees) on a new entity per run, and after every step compares the ledger with what the documents
 * alone say it must hold, computed here from accounting principles (docs/reference/accounting.md):
 *
 * - revenue and sales tax: each unit of an order line is recognised once, by the first of its
 *   shipment and its invoice; a return of units not invoiced takes their revenue back, and the
 *   credit memo of a refunded return takes back the refunded value; an imported storefront order
 *   is recognised at import and never again; a late fee is revenue when charged;
 * - unbilled receivables: shipped (less returned) units of orders with no issued invoice;
 * - receivables (with the storefront clearing account): the amount due of every open invoice and
 *   late-fee invoice, plus what the storefront owes for imported orders until their payout;
 * - cost of goods sold and inventory: units shipped less returned at the product's cost, units on
 *   hand at the product's cost; stock on hand per product and location;
 * - cash, channel fees and each customer's credit balance;
 * - the trial balance nets to zero and the three subledger reconciliation variances are zero.
 *
 * `npm test` runs a fixed seed and a few runs; `npm run test:model -- --runs 500` runs more with
 * a random seed (docs/testing.md). A failure names the seed, the shrunk sequence of operations
 * and the step and figures that disagree.
 */

const D = (v: Decimal.Value) => new Decimal(v);
const ZERO = D(0);
const money = (v: Decimal) => v.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
const show = (v: Decimal) => v.toFixed(2);

const FIXED_SEED = 4;
const runs = Number(process.env.MODEL_RUNS ?? 8);
const seed = process.env.MODEL_SEED
  ? Number(process.env.MODEL_SEED)
  : process.env.MODEL_RUNS
    ? undefined
    : FIXED_SEED;
const maxCommands = Number(process.env.MODEL_MAX_COMMANDS ?? 15);
const shrink = process.env.MODEL_SHRINK !== '0';
const trace = process.env.MODEL_TRACE === '1';

const STOCK_PER_LOCATION = 500;
const LATE_FEE = D(5);
/** The sandbox storefront: order SB-1001 (2 × QA-WIDGET-001 at 27.50, no tax) and payout SB-PO-1. */
const SANDBOX = {
  sku: 'QA-WIDGET-001',
  quantity: 2,
  price: D('27.50'),
  gross: D(55),
  fees: D('1.90'),
  net: D('53.10'),
};

type Client = ReturnType<typeof api>;

interface ProductM {
  id: string;
  cost: Decimal;
}
interface LineM {
  id: string;
  product: number;
  qty: number;
  unitNet: Decimal;
  unitTax: Decimal;
  shipped: number;
  returned: number;
}
interface PackageItemM {
  id: string;
  line: number;
  qty: number;
  returned: number;
}
interface PackageM {
  id: string;
  location: number;
  items: PackageItemM[];
}
interface OrderM {
  id: string;
  account: number;
  lines: LineM[];
  status: 'confirmed' | 'cancelled';
  /** Imported from a storefront: its total is recognised at import. */
  imported: boolean;
  invoice?: number;
  /** Its invoice was voided (an order converts to an invoice once). */
  invoiceVoided: boolean;
  packages: PackageM[];
  returns: number[];
}
interface PaymentM {
  /** `channel`: an imported order's invoice, settled by the storefront that sold it. */
  method: 'cash' | 'bank_deposit' | 'customer_credit' | 'channel';
  amount: Decimal;
  refunded: Decimal;
}
interface InvoiceM {
  id: string;
  kind: 'invoice' | 'late_fee_invoice';
  account: number;
  order?: number;
  total: Decimal;
  credited: Decimal;
  payments: PaymentM[];
  voided: boolean;
  /** Its account has payment terms, so it has a due date and can become overdue. */
  hasDueDate: boolean;
  lateFeeCharged: boolean;
  /** The refund method its returns used first (the model keeps one per invoice). */
  refundMethod?: 'original_payment' | 'customer_credit';
}
interface ReturnM {
  id: string;
  order: number;
  receivedNet: Decimal;
  receivedTax: Decimal;
  refundedNet: Decimal;
  refundedTax: Decimal;
}
interface AccountM {
  id: string;
  credit: Decimal;
}
interface IntegrationM {
  id: string;
  payoutImported: boolean;
}

interface Model {
  products: ProductM[];
  locations: string[];
  accounts: AccountM[];
  orders: OrderM[];
  invoices: InvoiceM[];
  returns: ReturnM[];
  integrations: IntegrationM[];
  /** Units on hand by product and location. */
  onHand: number[][];
  cash: Decimal;
  fees: Decimal;
  /** What storefronts owe for imported orders whose payout has not arrived. */
  channelOwed: Decimal;
  /** Accounts whose credit balance the last step may have moved (checked after it). */
  touched: Set<number>;
}

interface Real {
  app: TestApp;
  entityId: string;
  client: Client;
  /** Ledger account ids by control role, plus the channel fee account. */
  roles: Record<string, string[]>;
  feeAccount: string;
  /** A storefront clearing account of its own (an integration setting), outside the control accounts. */
  clearingAccount: string;
  cashAccount: string;
  /** Debit-minus-credit balance of every ledger account over the entries read so far. */
  ledger: Map<string, Decimal>;
  seen: Set<string>;
  /** The ledger accounts' normal sides. */
  creditNormal: Set<string>;
  steps: number;
  /** What each operation of this run did, for the failure message. */
  log: string[];
}

const paidOf = (inv: InvoiceM) => inv.payments.reduce((s, p) => s.plus(p.amount).minus(p.refunded), ZERO);
const dueOf = (inv: InvoiceM) =>
  inv.voided ? ZERO : Decimal.max(0, inv.total.minus(inv.credited).minus(paidOf(inv)));
const lineGross = (l: LineM, units: number) => l.unitNet.plus(l.unitTax).times(units);
const activeInvoice = (m: Model, o: OrderM) =>
  o.invoice !== undefined && !m.invoices[o.invoice].voided ? m.invoices[o.invoice] : undefined;

/** What the ledger must hold, from the documents alone. */
function expectedBooks(m: Model) {
  let revenue = ZERO;
  let tax = ZERO;
  let unbilled = ZERO;
  let cogs = ZERO;
  for (const o of m.orders) {
    for (const l of o.lines) {
      cogs = cogs.plus(m.products[l.product].cost.times(l.shipped - l.returned));
      if (o.imported) continue;
      if (activeInvoice(m, o)) {
        revenue = revenue.plus(l.unitNet.times(l.qty));
        tax = tax.plus(l.unitTax.times(l.qty));
      } else {
        revenue = revenue.plus(l.unitNet.times(l.shipped - l.returned));
        tax = tax.plus(l.unitTax.times(l.shipped - l.returned));
        unbilled = unbilled.plus(lineGross(l, l.shipped - l.returned));
      }
    }
    if (o.imported) revenue = revenue.plus(o.lines.reduce((s, l) => s.plus(l.unitNet.times(l.qty)), ZERO));
  }
  for (const r of m.returns) {
    revenue = revenue.minus(r.refundedNet);
    tax = tax.minus(r.refundedTax);
  }
  let receivables = m.channelOwed;
  for (const inv of m.invoices) {
    if (inv.kind === 'late_fee_invoice' && !inv.voided) revenue = revenue.plus(inv.total);
    receivables = receivables.plus(dueOf(inv));
  }
  let inventory = ZERO;
  m.onHand.forEach((row, p) => row.forEach((n) => (inventory = inventory.plus(m.products[p].cost.times(n)))));
  const credit = m.accounts.reduce((s, a) => s.plus(a.credit), ZERO);
  return {
    revenue: show(revenue),
    sales_tax: show(tax),
    unbilled_receivables: show(unbilled),
    receivables_and_clearing: show(receivables),
    cogs: show(cogs),
    inventory: show(inventory),
    cash: show(m.cash),
    channel_fees: show(m.fees),
    customer_credit: show(credit),
  };
}

/** Reads the entries posted since the last read (newest first) into the running balances. */
async function syncLedger(real: Real) {
  const fresh: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = (
      await real.client
        .get(`/v1/journal-entries?limit=100${after ? `&starting_after=${after}` : ''}`)
        .expect(200)
    ).body as { data: { id: string; status: string }[]; has_more: boolean };
    let reachedSeen = false;
    for (const e of page.data) {
      if (real.seen.has(e.id)) {
        reachedSeen = true;
        break;
      }
      if (e.status === 'posted' || e.status === 'reversed') fresh.push(e.id);
      else if (e.status !== 'draft' && e.status !== 'void')
        throw new Error(`unexpected entry status ${e.status}`);
    }
    if (reachedSeen || !page.has_more) break;
    after = page.data.at(-1)!.id;
  }
  for (const id of fresh) {
    const entry = (await real.client.get(`/v1/journal-entries/${id}`).expect(200)).body as {
      lines: { account_id: string; debit_amount: number; credit_amount: number }[];
    };
    for (const l of entry.lines)
      real.ledger.set(
        l.account_id,
        (real.ledger.get(l.account_id) ?? ZERO).plus(D(l.debit_amount)).minus(D(l.credit_amount)),
      );
    real.seen.add(id);
  }
}

async function actualBooks(real: Real) {
  await syncLedger(real);
  const balance = (ids: string[]) =>
    ids.reduce((s, id) => {
      const dc = real.ledger.get(id) ?? ZERO;
      return s.plus(real.creditNormal.has(id) ? dc.negated() : dc);
    }, ZERO);
  const role = (r: string) => balance(real.roles[r] ?? []);
  const clearing = Object.keys(real.roles).filter((r) => r !== 'receivables' && r.includes('clearing'));
  let trial = ZERO;
  for (const v of real.ledger.values()) trial = trial.plus(v);
  return {
    trial,
    books: {
      revenue: show(role('revenue')),
      sales_tax: show(role('tax')),
      unbilled_receivables: show(role('unbilled_receivables')),
      receivables_and_clearing: show(
        role('receivables')
          .plus(clearing.reduce((s, r) => s.plus(role(r)), ZERO))
          .plus(balance([real.clearingAccount])),
      ),
      cogs: show(role('cogs')),
      inventory: show(role('inventory')),
      cash: show(role('cash')),
      channel_fees: show(balance([real.feeAccount])),
      customer_credit: show(role('customer_credit')),
    },
  };
}

/** After every step: the books, the trial balance, the reconciliation, stock on hand and touched credit balances. */
async function verify(m: Model, real: Real, step: string) {
  const { trial, books } = await actualBooks(real);
  expect({ step, trial_balance: show(trial), ...books }).toEqual({
    step,
    trial_balance: '0.00',
    ...expectedBooks(m),
  });
  const rec = (await real.client.get('/v1/reports/subledger-reconciliation').expect(200)).body as Record<
    'ar' | 'ap' | 'inventory',
    { variance: number }
  > & { is_reconciled: boolean };
  expect({
    step,
    variances: { ar: rec.ar.variance, ap: rec.ap.variance, inventory: rec.inventory.variance },
  }).toEqual({
    step,
    variances: { ar: 0, ap: 0, inventory: 0 },
  });
  const balances = (await real.client.get('/v1/inventory/balances?limit=100').expect(200)).body.data as {
    product_id: string;
    location_id: string;
    on_hand: number;
  }[];
  const onHand: Record<string, number> = {};
  const expectedOnHand: Record<string, number> = {};
  for (const b of balances) {
    const p = m.products.findIndex((x) => x.id === b.product_id);
    const l = m.locations.indexOf(b.location_id);
    if (p >= 0 && l >= 0) onHand[`p${p}@l${l}`] = (onHand[`p${p}@l${l}`] ?? 0) + b.on_hand;
  }
  m.onHand.forEach((row, p) => row.forEach((n, l) => (expectedOnHand[`p${p}@l${l}`] = n)));
  expect({ step, on_hand: onHand }).toEqual({ step, on_hand: expectedOnHand });
  for (const a of m.touched) {
    const account = (await real.client.get(`/v1/accounts/${m.accounts[a].id}`).expect(200)).body as {
      credit_balance?: number;
    };
    expect({ step, account: a, credit_balance: account.credit_balance }).toEqual({
      step,
      account: a,
      credit_balance: m.accounts[a].credit.toNumber(),
    });
  }
  m.touched.clear();
}

/** One operation: `check` says whether the model allows it; `run` does it over HTTP, then verifies. */
abstract class Step implements fc.AsyncCommand<Model, Real> {
  protected done = '';
  abstract readonly name: string;
  abstract check(m: Readonly<Model>): boolean;
  protected abstract act(m: Model, real: Real): Promise<void>;
  async run(m: Model, real: Real) {
    real.steps++;
    this.done = '';
    const started = Date.now();
    let acted: number;
    try {
      await this.act(m, real);
      acted = Date.now();
      await verify(m, real, `${real.steps}. ${this.described()}`);
    } catch (error) {
      // The operations of this run as they happened, then what went wrong.
      real.log.push(`${real.steps}. ${this.described()}  <- failed here`);
      if (error instanceof Error) error.message = `Run:\n  ${real.log.join('\n  ')}\n\n${error.message}`;
      throw error;
    }
    real.log.push(`${real.steps}. ${this.described()}`);
    if (trace)
      process.stdout.write(
        `  ${real.steps}. ${this.described()} [${acted - started} + ${Date.now() - acted} ms]\n`,
      );
  }
  protected args(): unknown {
    return {};
  }
  /** The operation with what it did in this run (which documents, which amounts). */
  private described() {
    return `${this.toString()}${this.done ? ` -> ${this.done}` : ''}`;
  }
  toString() {
    return `${this.name}(${JSON.stringify(this.args())})`;
  }
}

const pick = <T>(items: T[], n: number) => items[n % items.length];

interface LineSpec {
  product: number;
  qty: number;
  price: number;
  discount: number;
  tax: number;
}

class CreateOrder extends Step {
  readonly name = 'createOrder';
  constructor(private readonly a: { account: number; lines: LineSpec[] }) {
    super();
  }
  protected override args() {
    return this.a;
  }
  check(m: Readonly<Model>) {
    return m.orders.length < 8;
  }
  protected async act(m: Model, real: Real) {
    const account = this.a.account % 2;
    const draft = (
      await real.client
        .post('/v1/orders')
        .send({
          account_id: m.accounts[account].id,
          lines: this.a.lines.map((l) => ({
            product_id: m.products[l.product].id,
            quantity: l.qty,
            unit_price: l.price,
            discount_percent: l.discount,
            tax_rate: l.tax,
          })),
        })
        .expect(201)
    ).body as { id: string };
    const order = (await real.client.post(`/v1/orders/${draft.id}/confirm`).send({}).expect(200)).body as {
      id: string;
      total: number;
      lines: { id: string }[];
    };
    const lines = this.a.lines.map((l, i) => {
      const unitNet = D(l.price).times(D(100).minus(l.discount)).div(100);
      return {
        id: order.lines[i].id,
        product: l.product,
        qty: l.qty,
        unitNet,
        unitTax: unitNet.times(l.tax).div(100),
        shipped: 0,
        returned: 0,
      };
    });
    const total = lines.reduce((s, l) => s.plus(lineGross(l, l.qty)), ZERO);
    expect({ order_total: order.total }).toEqual({ order_total: money(total).toNumber() });
    m.orders.push({
      id: order.id,
      account,
      lines,
      status: 'confirmed',
      imported: false,
      invoiceVoided: false,
      packages: [],
      returns: [],
    });
    this.done = `order ${m.orders.length - 1} total ${show(total)}`;
  }
}

class Ship extends Step {
  readonly name = 'ship';
  constructor(private readonly a: { order: number; location: number; full: boolean; parts: number[] }) {
    super();
  }
  protected override args() {
    return this.a;
  }
  private eligible(m: Readonly<Model>) {
    return m.orders.filter((o) => o.status === 'confirmed' && o.lines.some((l) => l.shipped < l.qty));
  }
  check(m: Readonly<Model>) {
    return this.eligible(m).length > 0;
  }
  protected async act(m: Model, real: Real) {
    const order = pick(this.eligible(m), this.a.order);
    const location = this.a.location % m.locations.length;
    const units: number[] = order.lines.map((l, i) => {
      const left = l.qty - l.shipped;
      return this.a.full ? left : Math.min(left, this.a.parts[i % this.a.parts.length]);
    });
    if (!units.some((u) => u > 0)) units[order.lines.findIndex((l) => l.shipped < l.qty)] = 1;
    const items = order.lines
      .map((l, i) => ({ order_item_id: l.id, quantity: units[i] }))
      .filter((it) => it.quantity > 0);
    const pkg = (
      await real.client
        .post('/v1/packages')
        .send({ order_id: order.id, location_id: m.locations[location], items })
        .expect(201)
    ).body as { id: string; items: { id: string; order_item_id: string; quantity: number }[] };
    await real.client
      .post(`/v1/packages/${pkg.id}/ship`)
      .send({ carrier: 'ups', tracking_number: `1ZMODEL${real.steps}` })
      .expect(200);
    const packageM: PackageM = { id: pkg.id, location, items: [] };
    for (const it of pkg.items) {
      const line = order.lines.findIndex((l) => l.id === it.order_item_id);
      order.lines[line].shipped += it.quantity;
      m.onHand[order.lines[line].product][location] -= it.quantity;
      packageM.items.push({ id: it.id, line, qty: it.quantity, returned: 0 });
    }
    order.packages.push(packageM);
    this.done = `order ${m.orders.indexOf(order)} units ${JSON.stringify(units)} from location ${location}`;
  }
}

class Invoice extends Step {
  readonly name = 'invoice';
  constructor(private readonly a: { order: number }) {
    super();
  }
  protected override args() {
    return this.a;
  }
  private eligible(m: Readonly<Model>) {
    return m.orders.filter((o) => o.status === 'confirmed' && o.invoice === undefined && !o.invoiceVoided);
  }
  check(m: Readonly<Model>) {
    return this.eligible(m).length > 0;
  }
  protected async act(m: Model, real: Real) {
    const order = pick(this.eligible(m), this.a.order);
    const draft = (await real.client.post(`/v1/orders/${order.id}/convert`).send({}).expect(200)).body as {
      id: string;
    };
    const invoice = (await real.client.post(`/v1/orders/${draft.id}/confirm`).send({}).expect(200)).body as {
      id: string;
      total: number;
      amount_due: number;
      due_date: string | null;
    };
    const total = money(order.lines.reduce((s, l) => s.plus(lineGross(l, l.qty)), ZERO));
    // An imported order's units were billed by the import: the channel settled them.
    const payments: PaymentM[] = order.imported ? [{ method: 'channel', amount: total, refunded: ZERO }] : [];
    const due = total.minus(payments.reduce((s, p) => s.plus(p.amount), ZERO));
    expect({ invoice_total: invoice.total, amount_due: invoice.amount_due }).toEqual({
      invoice_total: total.toNumber(),
      amount_due: due.toNumber(),
    });
    m.invoices.push({
      id: invoice.id,
      kind: 'invoice',
      account: order.account,
      order: m.orders.indexOf(order),
      total,
      credited: ZERO,
      payments,
      voided: false,
      hasDueDate: invoice.due_date !== null,
      lateFeeCharged: false,
    });
    order.invoice = m.invoices.length - 1;
    const shipped = order.lines.reduce((s, l) => s + l.shipped, 0);
    this.done = `order ${m.orders.indexOf(order)} invoice ${order.invoice} total ${show(total)} (${shipped} units shipped before${order.imported ? ', imported' : ''})`;
  }
}

const openInvoices = (m: Readonly<Model>) => m.invoices.filter((inv) => dueOf(inv).gt(0));

class Pay extends Step {
  readonly name = 'pay';
  constructor(private readonly a: { invoice: number; quarters: number; fromCredit: boolean }) {
    super();
  }
  protected override args() {
    return this.a;
  }
  check(m: Readonly<Model>) {
    return openInvoices(m).length > 0;
  }
  protected async act(m: Model, real: Real) {
    const inv = pick(openInvoices(m), this.a.invoice);
    const due = dueOf(inv);
    let amount =
      this.a.quarters >= 4 ? due : Decimal.max(D('0.01'), money(due.times(this.a.quarters).div(4)));
    const account = m.accounts[inv.account];
    const fromCredit = this.a.fromCredit && account.credit.gte('0.01');
    if (fromCredit) amount = Decimal.min(amount, account.credit);
    await real.client
      .post(`/v1/orders/${inv.id}/payments`)
      .send({ method: fromCredit ? 'customer_credit' : 'cash', amount: amount.toNumber() })
      .expect(201);
    inv.payments.push({ method: fromCredit ? 'customer_credit' : 'cash', amount, refunded: ZERO });
    if (fromCredit) {
      account.credit = account.credit.minus(amount);
      m.touched.add(inv.account);
    } else m.cash = m.cash.plus(amount);
    this.done = `invoice ${m.invoices.indexOf(inv)} paid ${show(amount)} of ${show(due)}${fromCredit ? ' from credit' : ''}`;
  }
}

class Deposit extends Step {
  readonly name = 'bankDeposit';
  constructor(private readonly a: { invoice: number; extra: number }) {
    super();
  }
  protected override args() {
    return this.a;
  }
  check(m: Readonly<Model>) {
    return openInvoices(m).length > 0;
  }
  protected async act(m: Model, real: Real) {
    const inv = pick(openInvoices(m), this.a.invoice);
    const due = dueOf(inv);
    const extra = D(this.a.extra);
    const deposit = (
      await real.client
        .post('/v1/accounting/bank-transactions')
        .send({
          bank_account_id: real.cashAccount,
          type: 'deposit',
          amount: due.plus(extra).toNumber(),
          transaction_date: new Date().toISOString().slice(0, 10),
          reference: `DEP-${real.steps}`,
        })
        .expect(201)
    ).body as { id: string };
    await real.client
      .post(`/v1/accounting/bank-transactions/${deposit.id}/match-deposit-to-invoices`)
      .send({
        account_id: m.accounts[inv.account].id,
        applications: [{ invoice_id: inv.id, amount: due.toNumber() }],
        route_unapplied: extra.gt(0) ? 'customer_credit' : null,
      })
      .expect(200);
    inv.payments.push({ method: 'bank_deposit', amount: due, refunded: ZERO });
    m.cash = m.cash.plus(due).plus(extra);
    m.accounts[inv.account].credit = m.accounts[inv.account].credit.plus(extra);
    m.touched.add(inv.account);
    this.done = `invoice ${m.invoices.indexOf(inv)} deposit ${show(due.plus(extra))} (${show(extra)} to credit)`;
  }
}

class Return extends Step {
  readonly name = 'returnReceived';
  constructor(private readonly a: { item: number; units: number }) {
    super();
  }
  protected override args() {
    return this.a;
  }
  private items(m: Readonly<Model>) {
    const out: { order: OrderM; pkg: PackageM; item: PackageItemM }[] = [];
    for (const order of m.orders)
      if (!order.imported)
        for (const pkg of order.packages)
          for (const item of pkg.items) if (item.qty > item.returned) out.push({ order, pkg, item });
    return out;
  }
  check(m: Readonly<Model>) {
    return this.items(m).length > 0;
  }
  protected async act(m: Model, real: Real) {
    const { order, pkg, item } = pick(this.items(m), this.a.item);
    const units = 1 + (this.a.units % (item.qty - item.returned));
    const line = order.lines[item.line];
    const ret = (
      await real.client
        .post('/v1/returns')
        .send({
          account_id: m.accounts[order.account].id,
          order_id: order.id,
          lines: [{ order_item_id: line.id, quantity: units }],
          reason: 'Model return',
        })
        .expect(201)
    ).body as { id: string };
    await real.client
      .post(`/v1/returns/${ret.id}/receive`)
      .send({ package_id: pkg.id, items: [{ package_item_id: item.id, quantity: units }] })
      .expect(200);
    item.returned += units;
    line.returned += units;
    m.onHand[line.product][pkg.location] += units;
    m.returns.push({
      id: ret.id,
      order: m.orders.indexOf(order),
      receivedNet: line.unitNet.times(units),
      receivedTax: line.unitTax.times(units),
      refundedNet: ZERO,
      refundedTax: ZERO,
    });
    order.returns.push(m.returns.length - 1);
    this.done = `order ${m.orders.indexOf(order)} line ${item.line} ${units} units back at location ${pkg.location}${
      activeInvoice(m, order) ? ' (invoiced)' : ''
    }`;
  }
}

class Refund extends Step {
  readonly name = 'refundReturn';
  constructor(private readonly a: { ret: number; toCredit: boolean }) {
    super();
  }
  protected override args() {
    return this.a;
  }
  private eligible(m: Readonly<Model>) {
    return m.returns.filter(
      (r) =>
        r.receivedNet.plus(r.receivedTax).gt(r.refundedNet.plus(r.refundedTax)) &&
        activeInvoice(m as Model, m.orders[r.order]),
    );
  }
  check(m: Readonly<Model>) {
    return this.eligible(m).length > 0;
  }
  protected async act(m: Model, real: Real) {
    const ret = pick(this.eligible(m), this.a.ret);
    const inv = activeInvoice(m, m.orders[ret.order])!;
    inv.refundMethod ??= this.a.toCredit ? 'customer_credit' : 'original_payment';
    const net = ret.receivedNet.minus(ret.refundedNet);
    const tax = ret.receivedTax.minus(ret.refundedTax);
    const memo = money(net.plus(tax));
    await real.client.post(`/v1/returns/${ret.id}/refund`).send({ method: inv.refundMethod }).expect(200);
    // The credit memo first reduces what is owed; only the paid rest goes back to the customer.
    const due = dueOf(inv);
    let paidBack = Decimal.max(0, memo.minus(due));
    inv.credited = inv.credited.plus(memo);
    ret.refundedNet = ret.refundedNet.plus(net);
    ret.refundedTax = ret.refundedTax.plus(tax);
    const account = m.accounts[inv.account];
    for (const p of [...inv.payments].reverse()) {
      if (paidBack.lte(0)) break;
      const part = Decimal.min(paidBack, p.amount.minus(p.refunded));
      p.refunded = p.refunded.plus(part);
      paidBack = paidBack.minus(part);
      if (inv.refundMethod === 'customer_credit' || p.method === 'customer_credit') {
        account.credit = account.credit.plus(part);
        m.touched.add(inv.account);
      } else m.cash = m.cash.minus(part);
    }
    this.done = `return ${m.returns.indexOf(ret)} credit memo ${show(memo)} on invoice ${m.invoices.indexOf(inv)} (due was ${show(due)}, ${inv.refundMethod})`;
  }
}

class VoidInvoice extends Step {
  readonly name = 'voidInvoice';
  constructor(private readonly a: { invoice: number }) {
    super();
  }
  protected override args() {
    return this.a;
  }
  private eligible(m: Readonly<Model>) {
    return m.invoices.filter(
      (inv) =>
        inv.kind === 'invoice' &&
        !inv.voided &&
        inv.payments.length === 0 &&
        inv.credited.isZero() &&
        m.orders[inv.order!].returns.length === 0,
    );
  }
  check(m: Readonly<Model>) {
    return this.eligible(m).length > 0;
  }
  protected async act(m: Model, real: Real) {
    const inv = pick(this.eligible(m), this.a.invoice);
    await real.client.post(`/v1/orders/${inv.id}/void`).send({}).expect(200);
    inv.voided = true;
    m.orders[inv.order!].invoiceVoided = true;
    this.done = `invoice ${m.invoices.indexOf(inv)} of order ${inv.order}`;
  }
}

class CancelOrder extends Step {
  readonly name = 'cancelOrder';
  constructor(private readonly a: { order: number }) {
    super();
  }
  protected override args() {
    return this.a;
  }
  private eligible(m: Readonly<Model>) {
    return m.orders.filter(
      (o) => !o.imported && o.status === 'confirmed' && o.packages.length === 0 && o.invoice === undefined,
    );
  }
  check(m: Readonly<Model>) {
    return this.eligible(m).length > 0;
  }
  protected async act(m: Model, real: Real) {
    const order = pick(this.eligible(m), this.a.order);
    await real.client.post(`/v1/orders/${order.id}/cancel`).send({}).expect(200);
    order.status = 'cancelled';
    this.done = `order ${m.orders.indexOf(order)}`;
  }
}

class StorefrontImport extends Step {
  readonly name = 'storefrontImport';
  constructor(private readonly a: { ownClearing: boolean }) {
    super();
  }
  protected override args() {
    return this.a;
  }
  check(m: Readonly<Model>) {
    return m.integrations.length < 3;
  }
  protected async act(m: Model, real: Real) {
    // No fee account yet: the run imports the order and lists the payout (it has fees) as an error.
    const integration = (
      await real.client
        .post('/v1/integrations')
        .send({
          type: 'storefront',
          name: `Model shop ${m.integrations.length + 1}`,
          credentials: { api_key: 'sandbox_model_key_0001' },
          // The default clearing account (the seeded settings), or an account of its own.
          settings: {
            adapter: 'sandbox',
            ...(this.a.ownClearing ? { clearing_account_id: real.clearingAccount } : {}),
          },
        })
        .expect(201)
    ).body as { id: string };
    const run = (await real.client.post(`/v1/integrations/${integration.id}/import-orders`).expect(200))
      .body as {
      counts: { orders_imported: number; payouts_imported: number };
    };
    expect(run.counts).toMatchObject({ orders_imported: 1, payouts_imported: 0 });
    const recent = (await real.client.get('/v1/orders?limit=20').expect(200)).body.data as {
      id: string;
      account_id: string;
      metadata: Record<string, string> | null;
      lines: { id: string; quantity: number; unit_price: number }[];
    }[];
    const imported = recent.find((o) => o.metadata?.integration_id === integration.id)!;
    const confirmed = (await real.client.post(`/v1/orders/${imported.id}/confirm`).send({}).expect(200))
      .body as {
      total: number;
      lines: { id: string }[];
    };
    expect({ imported_total: confirmed.total }).toEqual({ imported_total: SANDBOX.gross.toNumber() });
    let account = m.accounts.findIndex((a) => a.id === imported.account_id);
    if (account < 0) account = m.accounts.push({ id: imported.account_id, credit: ZERO }) - 1;
    m.orders.push({
      id: imported.id,
      account,
      lines: [
        {
          id: confirmed.lines[0].id,
          product: 2,
          qty: SANDBOX.quantity,
          unitNet: SANDBOX.price,
          unitTax: ZERO,
          shipped: 0,
          returned: 0,
        },
      ],
      status: 'confirmed',
      imported: true,
      invoiceVoided: false,
      packages: [],
      returns: [],
    });
    m.integrations.push({ id: integration.id, payoutImported: false });
    m.channelOwed = m.channelOwed.plus(SANDBOX.gross);
    this.done = `order ${m.orders.length - 1} imported`;
  }
}

class Payout extends Step {
  readonly name = 'storefrontPayout';
  constructor(private readonly a: { integration: number }) {
    super();
  }
  protected override args() {
    return this.a;
  }
  private eligible(m: Readonly<Model>) {
    return m.integrations.filter((i) => !i.payoutImported);
  }
  check(m: Readonly<Model>) {
    return this.eligible(m).length > 0;
  }
  protected async act(m: Model, real: Real) {
    const integration = pick(this.eligible(m), this.a.integration);
    await real.client
      .patch(`/v1/integrations/${integration.id}`)
      .send({ settings: { fee_account_id: real.feeAccount } })
      .expect(200);
    const run = (await real.client.post(`/v1/integrations/${integration.id}/import-orders`).expect(200))
      .body as {
      counts: { payouts_imported: number };
    };
    expect(run.counts).toMatchObject({ payouts_imported: 1 });
    integration.payoutImported = true;
    m.cash = m.cash.plus(SANDBOX.net);
    m.fees = m.fees.plus(SANDBOX.fees);
    m.channelOwed = m.channelOwed.minus(SANDBOX.gross);
    this.done = `integration ${m.integrations.indexOf(integration)}`;
  }
}

class LateFees extends Step {
  readonly name = 'lateFees';
  private eligible(m: Readonly<Model>) {
    return m.invoices.filter(
      (inv) => inv.kind === 'invoice' && inv.hasDueDate && !inv.lateFeeCharged && dueOf(inv).gt(0),
    );
  }
  check(m: Readonly<Model>) {
    return this.eligible(m).length > 0;
  }
  protected async act(m: Model, real: Real) {
    const charged = this.eligible(m);
    // The sweep reads every entity's overdue invoices: earlier runs' entities are taken out of it.
    await real.app.db.query(
      `UPDATE orders SET due_date = NULL WHERE entity_id <> $1 AND document_type = 'invoice' AND due_date IS NOT NULL`,
      [real.entityId],
    );
    await real.app.get(CollectionsService).runDue(new Date(Date.now() + 45 * 24 * 3600 * 1000));
    const fees = (await real.client.get('/v1/orders?document_type=late_fee_invoice&limit=100').expect(200))
      .body.data as { id: string; total: number; source_order_id: string }[];
    for (const inv of charged) {
      const fee = fees.find((f) => f.source_order_id === inv.id);
      expect({ late_fee_of: m.invoices.indexOf(inv), total: fee?.total }).toEqual({
        late_fee_of: m.invoices.indexOf(inv),
        total: LATE_FEE.toNumber(),
      });
      inv.lateFeeCharged = true;
      m.invoices.push({
        id: fee!.id,
        kind: 'late_fee_invoice',
        account: inv.account,
        total: LATE_FEE,
        credited: ZERO,
        payments: [],
        voided: false,
        hasDueDate: false,
        lateFeeCharged: true,
      });
    }
    expect({ late_fee_invoices: fees.length }).toEqual({
      late_fee_invoices: m.invoices.filter((i) => i.kind === 'late_fee_invoice').length,
    });
    this.done = `${charged.length} fee(s) on invoice(s) ${charged.map((i) => m.invoices.indexOf(i)).join(',')}`;
  }
}

const lineSpec = fc.record({
  product: fc.nat(2),
  qty: fc.integer({ min: 1, max: 4 }),
  price: fc.constantFrom(10, 20, 40),
  discount: fc.constantFrom(0, 10, 25),
  tax: fc.constantFrom(0, 10, 20),
});

const orderSpec = fc.record({
  account: fc.nat(1),
  lines: fc.array(lineSpec, { minLength: 1, maxLength: 3 }),
});

/** Every operation's arbitrary, by name; MODEL_ONLY=ship,invoice,... keeps some (to study one path). */
const operations: Record<string, fc.Arbitrary<Step>> = {
  createOrder: orderSpec.map((a) => new CreateOrder(a)),
  ship: fc
    .record({
      order: fc.nat(7),
      location: fc.nat(1),
      full: fc.boolean(),
      parts: fc.array(fc.nat(3), { minLength: 3, maxLength: 3 }),
    })
    .map((a) => new Ship(a)),
  invoice: fc.record({ order: fc.nat(7) }).map((a) => new Invoice(a)),
  pay: fc
    .record({ invoice: fc.nat(7), quarters: fc.integer({ min: 1, max: 4 }), fromCredit: fc.boolean() })
    .map((a) => new Pay(a)),
  bankDeposit: fc.record({ invoice: fc.nat(7), extra: fc.constantFrom(0, 0, 15) }).map((a) => new Deposit(a)),
  returnReceived: fc.record({ item: fc.nat(7), units: fc.nat(3) }).map((a) => new Return(a)),
  refundReturn: fc.record({ ret: fc.nat(7), toCredit: fc.boolean() }).map((a) => new Refund(a)),
  voidInvoice: fc.record({ invoice: fc.nat(7) }).map((a) => new VoidInvoice(a)),
  cancelOrder: fc.record({ order: fc.nat(7) }).map((a) => new CancelOrder(a)),
  storefrontImport: fc.record({ ownClearing: fc.boolean() }).map((a) => new StorefrontImport(a)),
  storefrontPayout: fc.record({ integration: fc.nat(2) }).map((a) => new Payout(a)),
  lateFees: fc.constant(null).map(() => new LateFees()),
};
const only = process.env.MODEL_ONLY?.split(',').map((n) => n.trim());
for (const name of only ?? [])
  if (!(name in operations))
    throw new Error(`MODEL_ONLY: no operation ${name} (${Object.keys(operations).join(', ')})`);
/** How often each operation is drawn relative to the others (documents first need orders, shipments, invoices). */
const weights: Record<string, number> = {
  createOrder: 4,
  ship: 4,
  invoice: 3,
  pay: 2,
  returnReceived: 2,
  refundReturn: 2,
};
const commands = fc.commands(
  Object.entries(operations)
    .filter(([name]) => !only || only.includes(name))
    .flatMap(([name, arbitrary]) => Array.from({ length: weights[name] ?? 1 }, () => arbitrary)),
  { maxCommands, size: 'max' },
);

describe('order to cash against an independent model of the books', () => {
  let app: TestApp;
  let chart: { code: string; name: string; type: string; control_role: string | null; is_bank: boolean }[];
  let entityCount = 0;

  beforeAll(async () => {
    app = await startTestApp();
    // The seeded chart of accounts, copied into every run's entity.
    const seeded = api(app, app.seed.entities.primary.keys.live);
    chart = (
      (await seeded.get('/v1/accounting/ledger-accounts?limit=100').expect(200)).body.data as {
        code: string;
        name: string;
        type: string;
        control_role: string | null;
        is_bank: boolean;
        postable: boolean;
      }[]
    ).filter((a) => a.postable);
  }, 120_000);
  afterAll(() => app?.close());

  /** A new entity with the seeded chart, two locations, three stocked products and two customers on net 30. */
  const freshBooks = async (): Promise<{ model: Model; real: Real }> => {
    const created = await app.get(OperatorService).createEntity({
      code: `otc${process.pid % 10_000}x${++entityCount}`,
      name: 'Model Trading Ltd',
      baseCurrency: 'USD',
    });
    const client = api(app, created.key.secret);
    const roles: Record<string, string[]> = {};
    const creditNormal = new Set<string>();
    let cashAccount = '';
    for (const a of chart) {
      const account = (
        await client
          .post('/v1/accounting/ledger-accounts')
          .send({
            code: a.code,
            name: a.name,
            type: a.type,
            control_role: a.control_role,
            is_bank: a.is_bank,
          })
          .expect(201)
      ).body as { id: string; normal_balance: string };
      if (a.control_role) (roles[a.control_role] ??= []).push(account.id);
      if (account.normal_balance === 'credit') creditNormal.add(account.id);
      if (a.control_role === 'cash') cashAccount = account.id;
    }
    const feeAccount = (
      await client
        .post('/v1/accounting/ledger-accounts')
        .send({ code: '6950', name: 'Channel fees', type: 'expense' })
        .expect(201)
    ).body.id as string;
    const clearingAccount = (
      await client
        .post('/v1/accounting/ledger-accounts')
        .send({ code: '1190', name: 'Storefront clearing', type: 'asset' })
        .expect(201)
    ).body.id as string;
    const year = new Date().getUTCFullYear();
    for (const y of [year, year + 1])
      await client
        .post('/v1/accounting/fiscal-years')
        .send({ name: `FY${y}`, start_date: `${y}-01-01`, end_date: `${y}-12-31` })
        .expect(201);
    await client
      .patch('/v1/accounting/settings')
      .send({
        late_fee_type: 'flat',
        late_fee_amount: LATE_FEE.toNumber(),
        late_fee_grace_days: 0,
        late_fee_frequency: 'per_invoice',
      })
      .expect(200);
    const locations: string[] = [];
    for (const code of ['EAST', 'WEST'])
      locations.push(
        (await client.post('/v1/locations').send({ name: code, code, type: 'warehouse' }).expect(201)).body
          .id,
      );
    const products: ProductM[] = [];
    for (const [sku, cost] of [
      ['MODEL-A', 6],
      ['MODEL-B', 9],
      [SANDBOX.sku, 11],
    ] as const) {
      const id = (
        await client
          .post('/v1/products')
          .send({ sku, name: sku, type: 'standard', list_price: 30 })
          .expect(201)
      ).body.id as string;
      for (const location of locations)
        await client
          .post('/v1/inventory/adjustments')
          .send({
            product_id: id,
            location_id: location,
            quantity: STOCK_PER_LOCATION,
            unit_cost: cost,
            reason: 'opening stock',
          })
          .expect(201);
      products.push({ id, cost: D(cost) });
    }
    const terms = (
      await client.post('/v1/payment-terms').send({ name: 'Net 30', code: 'N30', net_days: 30 }).expect(201)
    ).body.id as string;
    const accounts: AccountM[] = [];
    for (const name of ['Model customer one', 'Model customer two'])
      accounts.push({
        id: (await client.post('/v1/accounts').send({ name, payment_terms_id: terms }).expect(201)).body.id,
        credit: ZERO,
      });
    const model: Model = {
      products,
      locations,
      accounts,
      orders: [],
      invoices: [],
      returns: [],
      integrations: [],
      onHand: products.map(() => locations.map(() => STOCK_PER_LOCATION)),
      cash: ZERO,
      fees: ZERO,
      channelOwed: ZERO,
      touched: new Set(),
    };
    const real: Real = {
      app,
      entityId: created.entity.id,
      client,
      roles,
      feeAccount,
      clearingAccount,
      cashAccount,
      ledger: new Map(),
      seen: new Set(),
      creditNormal,
      steps: 0,
      log: [],
    };
    // The opening stock is in the books before the first step: inventory against its adjustment account.
    await verify(model, real, '0. opening stock');
    return { model, real };
  };

  it(
    'keeps the ledger equal to the documents along random order-to-cash paths',
    async () => {
      if (seed === undefined) process.stdout.write(`order-to-cash model: random seed, ${runs} runs\n`);
      await fc.assert(
        // One or two orders first, so that the drawn operations have documents to work on.
        fc.asyncProperty(fc.array(orderSpec, { minLength: 1, maxLength: 2 }), commands, (orders, cmds) =>
          fc.asyncModelRun(freshBooks, [...orders.map((a) => new CreateOrder(a)), ...cmds]),
        ),
        { numRuns: runs, seed, endOnFailure: !shrink },
      );
    },
    Number(process.env.MODEL_TIMEOUT_MS ?? 24 * 3600 * 1000),
  );
});
