import { addDays, dayInZone } from './business-day';

describe('business day', () => {
  it('gives the day an instant falls on in each zone, the zones asked in turn', () => {
    const instant = new Date('2026-11-21T20:30:00Z');
    for (let round = 0; round < 2; round++) {
      expect(dayInZone(instant, 'UTC')).toBe('2026-11-21');
      expect(dayInZone(instant, 'Asia/Tokyo')).toBe('2026-11-22');
      expect(dayInZone(instant, 'Pacific/Kiritimati')).toBe('2026-11-22');
      expect(dayInZone(instant, 'America/Los_Angeles')).toBe('2026-11-21');
    }
    expect(dayInZone(new Date('2026-11-22T09:00:00Z'), 'Pacific/Honolulu')).toBe('2026-11-21');
  });

  it('refuses an unknown zone every time', () => {
    expect(() => dayInZone(new Date(), 'Mars/Olympus_Mons')).toThrow(RangeError);
    expect(() => dayInZone(new Date(), 'Mars/Olympus_Mons')).toThrow(RangeError);
  });

  it('adds days across month and year ends', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});
