import {
  EVENT_CATALOG,
  EVENT_FAMILIES,
  eventTypes,
  eventTypeDefinition,
  isKnownEventType,
  registerEventTypes,
} from './event-catalog';

describe('event catalog registry', () => {
  it('orders the types by the listed families, then as registered, and refuses a type twice or outside its family', () => {
    registerEventTypes(['b', 'a'], eventTypes({ 'a.one': 'First.' }));
    registerEventTypes(['b', 'a'], eventTypes({ 'b.one': 'B.', 'a.two': 'Second.' }));
    expect(EVENT_CATALOG.map((d) => d.type)).toEqual(['b.one', 'a.one', 'a.two']);
    expect(EVENT_FAMILIES).toEqual(['b', 'a']);
    expect(isKnownEventType('a.two')).toBe(true);
    expect(isKnownEventType('c.one')).toBe(false);
    expect(eventTypeDefinition('a.one')).toEqual({ type: 'a.one', family: 'a', description: 'First.' });
    expect(() => registerEventTypes(['a'], eventTypes({ 'a.one': 'Again.' }))).toThrow(/twice/);
    expect(() =>
      registerEventTypes(['a', 'b'], [{ type: 'b.three', family: 'a', description: 'Stray.' }]),
    ).toThrow(/family/);
    expect(() => registerEventTypes(['a'], eventTypes({ 'c.one': 'Unlisted.' }))).toThrow(/family/);
  });
});
