import { money } from '#platform/domain/money';
import type { OrderLineRepository } from '../infrastructure/order-line.repository';
import { KitLines, LineDraft } from './kit-lines';

const draft = (orderId: string, productId: string | null, quantity: number): LineDraft => ({
  orderId,
  position: 0,
  productId,
  description: productId ?? 'service',
  quantity: money(quantity),
  listPrice: null,
  unitPrice: money(10),
  pricingPolicyId: null,
  discountPercent: money(0),
  discountAmount: money(0),
  taxRate: money(0),
  subtotal: money(10),
  discountTotal: money(0),
  taxTotal: money(0),
  total: money(10),
});

describe('KitLines.expandEach', () => {
  it('expands the lines of several orders with one read of the components, each order numbered from 0', async () => {
    const kitLines = new KitLines({} as OrderLineRepository);
    const asked: string[][] = [];
    kitLines.register({
      componentsOf: (ids) => {
        asked.push([...ids]);
        return Promise.resolve(
          new Map([['kit', [{ productId: 'part', description: 'Part', quantityPerKit: 2 }]]]),
        );
      },
    });
    const [first, second] = await kitLines.expandEach([
      [draft('o1', 'kit', 3), draft('o1', null, 1)],
      [draft('o2', 'plain', 1), draft('o2', 'kit', 1)],
    ]);
    expect(asked).toEqual([['kit', 'plain']]);
    expect(first.map((l) => [l.position, l.productId, l.quantity.toNumber(), l.total.toNumber()])).toEqual([
      [0, 'kit', 3, 10],
      [1, 'part', 6, 0],
      [2, null, 1, 10],
    ]);
    expect(first[1].parentLineId).toBe(first[0].id);
    expect(first[0].parentLineId).toBeNull();
    expect(second.map((l) => [l.position, l.productId, l.orderId])).toEqual([
      [0, 'plain', 'o2'],
      [1, 'kit', 'o2'],
      [2, 'part', 'o2'],
    ]);
    expect(second[2].parentLineId).toBe(second[1].id);
    // Lines the orders asked for have their ids (kit components point to them); components get theirs when inserted.
    const requested = [first[0], first[2], second[0], second[1]];
    expect(new Set(requested.map((l) => l.id)).size).toBe(4);
    expect(requested.every((l) => typeof l.id === 'string')).toBe(true);
  });

  it('reads nothing when no components source is registered or no line has a product', async () => {
    const kitLines = new KitLines({} as OrderLineRepository);
    const [lines] = await kitLines.expandEach([[draft('o1', 'kit', 1)]]);
    expect(lines.map((l) => l.productId)).toEqual(['kit']);
  });
});
