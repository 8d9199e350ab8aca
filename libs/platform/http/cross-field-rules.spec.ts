import { CrossFieldRules, firstRepeatedItem } from './cross-field-rules';

@CrossFieldRules({
  kind: 'distinct',
  field: 'lines',
  key: 'order_item_id',
  param: 'lines',
  sentence: 'Each order line appears once.',
})
class Keyed {}

@CrossFieldRules({
  kind: 'distinct',
  field: 'serial_numbers',
  param: 'serial_numbers',
  sentence: 'Each serial number appears once.',
})
class Flat {}

@CrossFieldRules({
  kind: 'distinct',
  field: 'items',
  key: 'serial_numbers[]',
  param: 'items',
  sentence: 'Each serial number appears once across items.',
})
class Across {}

describe('distinct rules: the first repeat of a request list', () => {
  it("names the repeated item's key", () => {
    expect(
      firstRepeatedItem(Keyed, {
        lines: [{ order_item_id: 'a' }, { order_item_id: 'b' }, { order_item_id: 'a' }],
      }),
    ).toEqual({ param: 'lines[2].order_item_id', hint: 'Each order line appears once.' });
    expect(
      firstRepeatedItem(Keyed, { lines: [{ order_item_id: 'a' }, { order_item_id: 'b' }] }),
    ).toBeUndefined();
  });

  it('names the repeated element of a flat list', () => {
    expect(firstRepeatedItem(Flat, { serial_numbers: ['S1', 'S2', 'S3', 'S2'] })).toEqual({
      param: 'serial_numbers[3]',
      hint: 'Each serial number appears once.',
    });
    expect(firstRepeatedItem(Flat, { serial_numbers: ['S1', 's1', 'S1 '] })).toBeUndefined();
    expect(firstRepeatedItem(Flat, {})).toBeUndefined();
  });

  it("names a repeat within one item's list and across the items", () => {
    expect(firstRepeatedItem(Across, { items: [{ serial_numbers: ['A', 'B', 'A'] }] })?.param).toBe(
      'items[0].serial_numbers[2]',
    );
    expect(
      firstRepeatedItem(Across, {
        items: [{ serial_numbers: ['A', 'B'] }, { quantity: 1 }, { serial_numbers: ['C', 'B'] }],
      }),
    ).toEqual({ param: 'items[2].serial_numbers[1]', hint: 'Each serial number appears once across items.' });
    expect(
      firstRepeatedItem(Across, { items: [{ serial_numbers: ['A'] }, { serial_numbers: ['B'] }] }),
    ).toBeUndefined();
  });
});
