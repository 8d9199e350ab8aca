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

  it('turns the day at local midnight, also in a zone three quarters of an hour off and at a DST change', () => {
    // Kathmandu is UTC+05:45: local midnight is 18:15 UTC.
    expect(dayInZone(new Date('2026-11-21T18:14:59.999Z'), 'Asia/Kathmandu')).toBe('2026-11-21');
    expect(dayInZone(new Date('2026-11-21T18:15:00Z'), 'Asia/Kathmandu')).toBe('2026-11-22');
    // Back to the quarter hour before, once the one after it is the zone's kept day.
    expect(dayInZone(new Date('2026-11-21T18:14:59.999Z'), 'Asia/Kathmandu')).toBe('2026-11-21');
    // Chatham is UTC+13:45 in its summer: midnight is 10:15 UTC the day before.
    expect(dayInZone(new Date('2026-12-01T10:14:00Z'), 'Pacific/Chatham')).toBe('2026-12-01');
    expect(dayInZone(new Date('2026-12-01T10:15:00Z'), 'Pacific/Chatham')).toBe('2026-12-02');
    // New York leaves summer time at 06:00 UTC on 2026-11-01; midnight that night is 05:00 UTC.
    expect(dayInZone(new Date('2026-11-02T04:59:59Z'), 'America/New_York')).toBe('2026-11-01');
    expect(dayInZone(new Date('2026-11-02T05:00:00Z'), 'America/New_York')).toBe('2026-11-02');
    // Liberia kept -0:44:30 until 1972: its midnight fell inside a quarter hour.
    expect(dayInZone(new Date('1971-06-01T00:44:29Z'), 'Africa/Monrovia')).toBe('1971-05-31');
    expect(dayInZone(new Date('1971-06-01T00:44:31Z'), 'Africa/Monrovia')).toBe('1971-06-01');
    // Instants before 1973 are worked out every time: no day kept for 00:44:31 answers 00:44:29.
    expect(dayInZone(new Date('1971-06-01T00:44:29Z'), 'Africa/Monrovia')).toBe('1971-05-31');
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
