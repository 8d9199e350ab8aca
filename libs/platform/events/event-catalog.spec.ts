import {
  EVENT_CATALOG,
  EVENT_FAMILIES,
  eventFamily,
  eventTypeDefinition,
  isKnownEventType,
  registerEventTypes,
} from './event-catalog';

describe('event catalog registry', () => {
  it('orders the types by the listed families, then as registered, and refuses a type twice or outside its family', () => {
    registerEventTypes(['b', 'a'], eventFamily('a', { 'a.one': 'First.' }));
    registerEventTypes(
      ['b', 'a'],
      [...eventFamily('b', { 'b.one': 'B.' }), ...eventFamily('a', { 'a.two': 'Second.' })],
    );
    expect(EVENT_CATALOG.map((d) => d.type)).toEqual(['b.one', 'a.one', 'a.two']);
    expect(EVENT_FAMILIES).toEqual(['b', 'a']);
    expect(isKnownEventType('a.two')).toBe(true);
    expect(isKnownEventType('c.one')).toBe(false);
    expect(eventTypeDefinition('a.one')).toEqual({ type: 'a.one', family: 'a', description: 'First.' });
    expect(() => registerEventTypes(['a'], eventFamily('a', { 'a.one': 'Again.' }))).toThrow(/twice/);
    expect(() => registerEventTypes(['a', 'b'], eventFamily('a', { 'b.three': 'Stray.' }))).toThrow(/family/);
    expect(() => registerEventTypes(['a'], eventFamily('c', { 'c.one': 'Unlisted.' }))).toThrow(/family/);
  });
});
