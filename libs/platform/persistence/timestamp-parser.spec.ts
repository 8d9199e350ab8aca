import { types } from 'pg';
import { parseTimestamptz } from './timestamp-parser';

const driver = types.getTypeParser(1184, 'text') as (text: string) => unknown;
const parse = (text: string) => parseTimestamptz(text, driver);
const time = (value: unknown) => (value instanceof Date ? value.getTime() : value);

describe('timestamptz parser', () => {
  it('reads what PostgreSQL writes exactly as the driver does', () => {
    const samples = [
      '2026-11-26 06:13:41+00',
      '2026-11-26 06:13:41.1+00',
      '2026-11-26 06:13:41.12+00',
      '2026-11-26 06:13:41.123+00',
      '2026-11-26 06:13:41.123456+00',
      '2026-11-26 06:13:41.999999+00',
      '2026-01-01 00:00:00+05:30',
      '2026-03-01 23:59:59.5-03',
      '2024-02-29 12:00:00.000001+14',
      '1999-12-31 23:59:59.9999-09:30',
      '1000-01-01 00:00:00+00',
      '9999-12-31 23:59:59.999999+00',
    ];
    for (const sample of samples)
      expect([sample, time(parse(sample))]).toEqual([sample, time(driver(sample))]);
  });

  it('agrees with the driver on many random instants and offsets', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pad = (n: number, width = 2) => String(n).padStart(width, '0');
    for (let k = 0; k < 2000; k++) {
      const instant = new Date(Math.floor(random() * 4e12));
      const offset = Math.floor(random() * 27 - 13) * 60 + (random() < 0.2 ? 30 : 0);
      const local = new Date(instant.getTime() + offset * 60_000);
      const fraction =
        random() < 0.5 ? '' : `.${pad(Math.floor(random() * 1e6), 6).slice(0, 1 + Math.floor(random() * 6))}`;
      const abs = Math.abs(offset);
      const zone = `${offset < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}${abs % 60 ? `:${pad(abs % 60)}` : ''}`;
      const text = `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())} ${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}${fraction}${zone}`;
      expect([text, time(parse(text))]).toEqual([text, time(driver(text))]);
    }
  });

  it('leaves other forms to the driver', () => {
    for (const text of [
      'infinity',
      '-infinity',
      '0044-03-15 12:00:00+00 BC',
      '0099-01-01 00:00:00+00',
      '2026-11-26 06:13:41+00:00:30',
    ])
      expect([text, time(parse(text))]).toEqual([text, time(driver(text))]);
  });
});
