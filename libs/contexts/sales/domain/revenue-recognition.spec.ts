import Decimal from 'decimal.js';
import fc from 'fast-check';
import {
  billableUnits,
  matchInvoiceLines,
  LineProgress,
  LineTerms,
  noProgress,
  recognize,
  recognizedValue,
  unbilledValue,
  valueOfUnits,
  creditableUnits,
  unitsCoveredByCredit,
} from './revenue-recognition';

const line: LineTerms = { quantity: 3, net: '100', tax: '8.25' };
const d = (v: Decimal.Value) => new Decimal(v);
const fixed = (v: { net: Decimal; tax: Decimal }) => ({ net: v.net.toFixed(4), tax: v.tax.toFixed(4) });

function run(steps: { shipped?: number; billed?: number }[], terms: LineTerms = line) {
  let progress: LineProgress = noProgress();
  let revenue = d(0);
  let tax = d(0);
  let unbilled = d(0);
  for (const step of steps) {
    const r = recognize(terms, progress, step);
    progress = r.after;
    revenue = revenue.plus(r.recognized.net);
    tax = tax.plus(r.recognized.tax);
    unbilled = unbilled.plus(r.unbilled.net).plus(r.unbilled.tax);
  }
  return { progress, revenue, tax, unbilled };
}

describe('revenue recognition of an order line', () => {
  it('values units cumulatively, so the units of a line add up to its amounts', () => {
    expect(fixed(valueOfUnits(line, 1))).toEqual({ net: '33.3333', tax: '2.7500' });
    expect(fixed(valueOfUnits(line, 2))).toEqual({ net: '66.6667', tax: '5.5000' });
    expect(fixed(valueOfUnits(line, 3))).toEqual({ net: '100.0000', tax: '8.2500' });
    expect(fixed(valueOfUnits(line, 5))).toEqual({ net: '100.0000', tax: '8.2500' });
  });

  it('ship then invoice: shipping recognises, the invoice only moves unbilled to billed', () => {
    const shipped = recognize(line, noProgress(), { shipped: 3 });
    expect(fixed(shipped.recognized)).toEqual({ net: '100.0000', tax: '8.2500' });
    expect(fixed(shipped.unbilled)).toEqual({ net: '100.0000', tax: '8.2500' });
    const invoiced = recognize(line, shipped.after, { billed: 3 });
    expect(fixed(invoiced.recognized)).toEqual({ net: '0.0000', tax: '0.0000' });
    expect(fixed(invoiced.billed)).toEqual({ net: '100.0000', tax: '8.2500' });
    expect(fixed(invoiced.unbilled)).toEqual({ net: '-100.0000', tax: '-8.2500' });
  });

  it('invoice then ship: the invoice recognises, the shipment nothing', () => {
    const invoiced = recognize(line, noProgress(), { billed: 3 });
    expect(fixed(invoiced.recognized)).toEqual({ net: '100.0000', tax: '8.2500' });
    expect(fixed(invoiced.unbilled)).toEqual({ net: '0.0000', tax: '0.0000' });
    const shipped = recognize(line, invoiced.after, { shipped: 3 });
    expect(fixed(shipped.recognized)).toEqual({ net: '0.0000', tax: '0.0000' });
    expect(fixed(shipped.unbilled)).toEqual({ net: '0.0000', tax: '0.0000' });
  });

  it('partial shipments and invoices interleaved recognise each unit once', () => {
    const r = run([{ shipped: 1 }, { billed: 2 }, { shipped: 1 }, { shipped: 1 }, { billed: 1 }]);
    expect(r.revenue.toFixed(4)).toBe('100.0000');
    expect(r.tax.toFixed(4)).toBe('8.2500');
    expect(r.unbilled.toFixed(4)).toBe('0.0000');
    const billedFirst = recognize(line, { shipped: d(1), billed: d(0) }, { billed: 2 });
    expect(fixed(billedFirst.recognized)).toEqual({ net: '33.3334', tax: '2.7500' });
    expect(fixed(billedFirst.unbilled)).toEqual({ net: '-33.3333', tax: '-2.7500' });
  });

  it('a void reverses only what its invoice recognised; shipped units go back to unbilled', () => {
    const before = { shipped: d(1), billed: d(3) };
    const voided = recognize(line, before, { billed: -3 });
    expect(fixed(voided.recognized)).toEqual({ net: '-66.6667', tax: '-5.5000' });
    expect(fixed(voided.unbilled)).toEqual({ net: '33.3333', tax: '2.7500' });
    expect(fixed(unbilledValue(line, voided.after))).toEqual({ net: '33.3333', tax: '2.7500' });
  });

  it('a return before invoicing reverses the shipped units; after invoicing it reverses nothing', () => {
    const beforeInvoice = recognize(line, { shipped: d(3), billed: d(0) }, { shipped: -1 });
    expect(fixed(beforeInvoice.recognized)).toEqual({ net: '-33.3333', tax: '-2.7500' });
    expect(fixed(beforeInvoice.unbilled)).toEqual({ net: '-33.3333', tax: '-2.7500' });
    const afterInvoice = recognize(line, { shipped: d(3), billed: d(3) }, { shipped: -1 });
    expect(fixed(afterInvoice.recognized)).toEqual({ net: '0.0000', tax: '0.0000' });
    const partlyBilled = recognize(line, { shipped: d(3), billed: d(1) }, { shipped: -3 });
    expect(fixed(partlyBilled.recognized)).toEqual({ net: '-66.6667', tax: '-5.5000' });
  });

  it('billing stops at the line quantity', () => {
    expect(billableUnits(line, { shipped: d(0), billed: d(2) }, 3).toNumber()).toBe(1);
    expect(billableUnits(line, { shipped: d(0), billed: d(3) }, 3).toNumber()).toBe(0);
  });

  it('property: whatever the order of events, recognised revenue is the value of max(shipped, billed) and unbilled its excess over billed', () => {
    const terms = fc.record({
      quantity: fc.integer({ min: 1, max: 7 }),
      net: fc.integer({ min: 0, max: 10_000_00 }).map((c) => (c / 100).toFixed(2)),
      tax: fc.integer({ min: 0, max: 1_000_00 }).map((c) => (c / 100).toFixed(2)),
    });
    const step = fc.record({ kind: fc.constantFrom('ship', 'bill'), units: fc.integer({ min: -3, max: 3 }) });
    fc.assert(
      fc.property(terms, fc.array(step, { maxLength: 12 }), (t, steps) => {
        const q = t.quantity;
        // Events as the posters send them: shipments up to the quantity, billing capped by billableUnits.
        let progress = noProgress();
        const applied: { shipped?: number; billed?: number }[] = [];
        for (const s of steps) {
          if (s.kind === 'ship') {
            const next = Math.min(q, Math.max(0, progress.shipped.toNumber() + s.units));
            applied.push({ shipped: next - progress.shipped.toNumber() });
          } else {
            const wanted = s.units;
            const units =
              wanted >= 0
                ? billableUnits(t, progress, wanted).toNumber()
                : -Math.min(-wanted, progress.billed.toNumber());
            applied.push({ billed: units });
          }
          progress = recognize(t, progress, applied[applied.length - 1]).after;
        }
        const r = run(applied, t);
        const expectedUnits = Math.max(r.progress.shipped.toNumber(), r.progress.billed.toNumber());
        const expectedNet = new Decimal(t.net).times(expectedUnits).dividedBy(q).toDecimalPlaces(4);
        const expectedTax = new Decimal(t.tax).times(expectedUnits).dividedBy(q).toDecimalPlaces(4);
        expect(r.revenue.toFixed(4)).toBe(expectedNet.toFixed(4));
        expect(r.tax.toFixed(4)).toBe(expectedTax.toFixed(4));
        const billed = r.progress.billed;
        const billedValue = new Decimal(t.net)
          .times(billed)
          .dividedBy(q)
          .toDecimalPlaces(4)
          .plus(new Decimal(t.tax).times(billed).dividedBy(q).toDecimalPlaces(4));
        expect(r.unbilled.toFixed(4)).toBe(expectedNet.plus(expectedTax).minus(billedValue).toFixed(4));
        expect(fixed(recognizedValue(t, r.progress))).toEqual({
          net: expectedNet.toFixed(4),
          tax: expectedTax.toFixed(4),
        });
      }),
      { numRuns: 300 },
    );
  });
});

describe('matching an invoice to its order lines', () => {
  const order = [
    { id: 'a', productId: 'p1', description: 'A', quantity: 2 },
    { id: 'b', productId: 'p1', description: 'A again', quantity: 3 },
    { id: 'c', productId: null, description: 'Service', quantity: 1 },
  ];
  it('takes units of the same product in order, up to each line, and keeps what is left', () => {
    const { units, unmatched } = matchInvoiceLines(order, [
      { id: 'x', productId: 'p1', description: 'A', quantity: 4 },
      { id: 'y', productId: null, description: 'Service', quantity: 1 },
      { id: 'z', productId: 'p9', description: 'Other', quantity: 2 },
    ]);
    expect(Object.fromEntries([...units].map(([k, v]) => [k, v.toNumber()]))).toEqual({ a: 2, b: 2, c: 1 });
    expect(Object.fromEntries([...unmatched].map(([k, v]) => [k, v.toNumber()]))).toEqual({ z: 2 });
  });
});

describe('credit memos of returned units', () => {
  // 3 units at 40 net, 10 % tax: 44 a unit.
  const line = { quantity: 3, net: 120, tax: 12 };
  const at = (shipped: number, billed: number) => ({
    shipped: new Decimal(shipped),
    billed: new Decimal(billed),
  });

  it('credits only returned units the line still bills beyond what stays shipped', () => {
    expect(creditableUnits(at(2, 3), 1).toNumber()).toBe(1);
    expect(creditableUnits(at(1, 3), 1).toNumber()).toBe(1);
    expect(creditableUnits(at(1, 3), 5).toNumber()).toBe(2);
    // Shipped 3, billed 2, two came back: one of them was never billed.
    expect(creditableUnits(at(1, 2), 2).toNumber()).toBe(1);
    expect(creditableUnits(at(2, 2), 1).toNumber()).toBe(0);
  });

  it('takes back as many whole units as the amount covers, reversing exactly their value', () => {
    const full = unitsCoveredByCredit(line, at(1, 3), 2, 88);
    expect(full.units.toNumber()).toBe(2);
    expect([full.reversed.net.toNumber(), full.reversed.tax.toNumber()]).toEqual([80, 8]);
    const one = unitsCoveredByCredit(line, at(1, 3), 2, 60);
    expect(one.units.toNumber()).toBe(1);
    expect([one.reversed.net.toNumber(), one.reversed.tax.toNumber()]).toEqual([40, 4]);
    expect(unitsCoveredByCredit(line, at(1, 3), 2, 20).units.toNumber()).toBe(0);
    // Units still shipped stay recognised: un-billing below what is shipped reverses nothing more.
    const shipped = unitsCoveredByCredit(line, at(2, 3), 1, 44);
    expect([shipped.units.toNumber(), shipped.reversed.net.toNumber()]).toEqual([1, 40]);
  });

  it('reverses a third of a line with cumulative rounding, within half a cent of the amount', () => {
    const odd = { quantity: 3, net: 100, tax: 10 };
    // Values of 1, 2, 3 units: 33.3333, 66.6667, 100 net.
    const r = unitsCoveredByCredit(odd, at(0, 3), 1, 36.67);
    expect(r.units.toNumber()).toBe(1);
    expect([r.reversed.net.toNumber(), r.reversed.tax.toNumber()]).toEqual([33.3333, 3.3333]);
  });
});
