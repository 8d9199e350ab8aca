import { releaseDeltas } from './commitment';

describe('releaseDeltas', () => {
  it('releases the moved units where the line is committed when it moves from there', () => {
    expect(releaseDeltas({ fromLocationId: 'a', locationId: 'a', openBefore: 5, released: 2 })).toEqual([
      { locationId: 'a', quantity: -2 },
    ]);
  });

  it('moves what stays open to the location the units left from', () => {
    expect(releaseDeltas({ fromLocationId: 'a', locationId: 'b', openBefore: 5, released: 2 })).toEqual([
      { locationId: 'a', quantity: -5 },
      { locationId: 'b', quantity: 3 },
    ]);
  });

  it('leaves nothing at the new location when the move consumed the whole open quantity', () => {
    expect(releaseDeltas({ fromLocationId: 'a', locationId: 'b', openBefore: 4, released: 4 })).toEqual([
      { locationId: 'a', quantity: -4 },
    ]);
  });

  it('commits the rest at the new location when the line was committed nowhere', () => {
    expect(releaseDeltas({ fromLocationId: null, locationId: 'b', openBefore: 3, released: 1 })).toEqual([
      { locationId: 'b', quantity: 2 },
    ]);
  });

  it('changes nothing for a line already fully moved', () => {
    expect(releaseDeltas({ fromLocationId: 'a', locationId: 'a', openBefore: 0, released: 0 })).toEqual([]);
  });
});
