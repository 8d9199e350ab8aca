import type { Response } from 'superagent';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, inflateSync } from 'node:zlib';
import { PNG_HEIGHT, PNG_LAYOUT, PNG_SIGNATURE, PNG_WIDTH, renderLabel } from '#contexts/fulfillment';
import { eventually } from '../support/eventually';
import { api } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { Client, confirmedOrder, fixturesOf, stock } from './support';

/** Collects a binary response body into a Buffer (supertest's parser hook). */
const binary = (res: Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

/** The decoded rows of a PNG label after checking its signature, chunk CRCs and header. */
function pngRows(png: Buffer): Buffer[] {
  expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  const chunks: { type: string; data: Buffer }[] = [];
  for (let offset = 8; offset < png.length;) {
    const length = png.readUInt32BE(offset);
    const typed = png.subarray(offset + 4, offset + 8 + length);
    expect(png.readUInt32BE(offset + 8 + length)).toBe(crc32(typed));
    chunks.push({ type: typed.subarray(0, 4).toString('latin1'), data: typed.subarray(4) });
    offset += 12 + length;
  }
  expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
  expect([chunks[0].data.readUInt32BE(0), chunks[0].data.readUInt32BE(4)]).toEqual([PNG_WIDTH, PNG_HEIGHT]);
  const raw = inflateSync(chunks[1].data);
  expect(raw.length).toBe((PNG_WIDTH + 1) * PNG_HEIGHT);
  return Array.from({ length: PNG_HEIGHT }, (_, y) =>
    raw.subarray(y * (PNG_WIDTH + 1) + 1, (y + 1) * (PNG_WIDTH + 1)),
  );
}

/**
 * The barcodes zbarimg (zbar-tools) finds in a label file: a PNG as is, a PDF rasterised by
 * pdftoppm (poppler-utils) at `dpi` first. Each as `CODE-128:<data>`.
 */
function scan(file: Buffer, type: 'PDF' | 'PNG', dpi = 203): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'label-scan-'));
  try {
    let image = join(dir, 'label.png');
    if (type === 'PDF') {
      writeFileSync(join(dir, 'label.pdf'), file);
      execFileSync('pdftoppm', [
        '-r',
        String(dpi),
        '-gray',
        '-png',
        join(dir, 'label.pdf'),
        join(dir, 'page'),
      ]);
      image = join(
        dir,
        readdirSync(dir).find((f) => f.startsWith('page') && f.endsWith('.png'))!,
      );
    } else writeFileSync(image, file);
    try {
      return execFileSync('zbarimg', ['--quiet', image], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      })
        .trim()
        .split('\n');
    } catch (error) {
      // zbarimg exits 4 when it finds no symbol.
      if ((error as { status?: number }).status === 4) return [];
      throw error;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const inkIn = (rows: Buffer[], band: { top: number; bottom: number }) =>
  rows.slice(band.top, band.bottom).reduce((n, row) => n + [...row].filter((v) => v < 128).length, 0);

describe('shipping labels show ship-from, ship-to, service, weight, package and tracking number', () => {
  let app: TestApp;
  let live: Client;
  let productId: string;
  let locationId: string;

  const SHIP_FROM = ['Reno Dock', '1 Dock Rd', 'Building 7', 'Reno, NV 89501', 'US'];
  const shipTo = (name: string, city: string) => [name, '500 Market St', `${city}, CA 94105`, 'US'];

  /** An account with a default shipping address (and a billing one the label must not use). */
  const customer = async (name: string, city: string) => {
    const account = (await live.post('/v1/accounts').send({ name }).expect(201)).body;
    await live
      .post(`/v1/accounts/${account.id}/addresses`)
      .send({ type: 'billing', line1: '9 Billing Ave', city: 'Fresno', region: 'CA', country: 'us' })
      .expect(201);
    await live
      .post(`/v1/accounts/${account.id}/addresses`)
      .send({
        type: 'shipping',
        line1: '500 Market St',
        city,
        region: 'CA',
        postal_code: '94105',
        country: 'us',
      })
      .expect(201);
    return account.id as string;
  };

  /** Buys a UPS Ground label of `type` for a new package of a new order of `accountId`, and fetches it. */
  const labelFor = async (
    accountId: string,
    type: string,
    carrier = 'ups',
    service = 'ground',
    from = locationId,
  ) => {
    const order = await confirmedOrder(live, accountId, [{ product_id: productId, quantity: 1 }]);
    const pkg = (
      await live.post('/v1/packages').send({ order_id: order.id, weight: 2.5, location_id: from }).expect(201)
    ).body;
    const rates = (await live.get(`/v1/packages/${pkg.id}/rates`).expect(200)).body.data as {
      carrier: string;
      service_level: string;
      rate_object_id: string;
    }[];
    const rate = rates.find((r) => r.carrier === carrier && r.service_level === service)!;
    const bought = await live
      .post(`/v1/packages/${pkg.id}/buy-label`)
      .send({ rate_object_id: rate.rate_object_id, label_file_type: type })
      .expect(200);
    const file = await live.get(`/v1/packages/${pkg.id}/label`).buffer(true).parse(binary).expect(200);
    return {
      packageId: pkg.id as string,
      body: file.body as Buffer,
      tracking: bought.body.tracking_number as string,
      number: bought.body.package_number as string,
    };
  };

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    productId = fixturesOf(app).productId;
    locationId = (
      await live
        .post('/v1/locations')
        .send({
          name: 'Reno Dock',
          code: `RENO-${Date.now()}`,
          type: 'warehouse',
          address: {
            line1: '1 Dock Rd',
            line2: 'Building 7',
            city: 'Reno',
            region: 'NV',
            postal_code: '89501',
            country: 'US',
          },
        })
        .expect(201)
    ).body.id;
  });
  afterAll(() => app.close());

  it('PDF: every part is a text line of the page', async () => {
    const accountId = await customer('Label Customer PDF', 'San Francisco');
    const label = await labelFor(accountId, 'PDF');
    const pdf = label.body.toString('latin1');
    expect(pdf.startsWith('%PDF-1.4')).toBe(true);
    const lines = [...pdf.matchAll(/\((.*)\) Tj/g)].map((m) => m[1]);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines).toEqual([
      'UPS Ground',
      `Package ${label.number}  Weight 2.5 lb`,
      'SHIP FROM:',
      ...SHIP_FROM,
      'SHIP TO:',
      ...shipTo('Label Customer PDF', 'San Francisco'),
      label.tracking,
      'TRACKING NUMBER',
    ]);
  });

  it("a label's ship-from follows a change of its location's name and address", async () => {
    const accountId = await customer('Label Customer Moved', 'San Francisco');
    const dock = (
      await live
        .post('/v1/locations')
        .send({
          name: 'Carson Dock',
          code: `CARSON-${Date.now()}`,
          type: 'warehouse',
          address: {
            line1: '3 Mill St',
            city: 'Carson City',
            region: 'NV',
            postal_code: '89701',
            country: 'US',
          },
        })
        .expect(201)
    ).body.id as string;
    const shipFrom = async () => {
      const lines = [
        ...(await labelFor(accountId, 'PDF', 'ups', 'ground', dock)).body
          .toString('latin1')
          .matchAll(/\((.*)\) Tj/g),
      ].map((m) => m[1]);
      return lines.slice(lines.indexOf('SHIP FROM:') + 1, lines.indexOf('SHIP TO:'));
    };
    expect(await shipFrom()).toEqual(['Carson Dock', '3 Mill St', 'Carson City, NV 89701', 'US']);
    await live
      .patch(`/v1/locations/${dock}`)
      .send({
        name: 'Sparks Dock',
        address: { line1: '2 Rail Way', city: 'Sparks', region: 'NV', postal_code: '89431', country: 'US' },
      })
      .expect(200);
    // Every instance forgets what it knew of the entity's locations once the change commits.
    const moved = ['Sparks Dock', '2 Rail Way', 'Sparks, NV 89431', 'US'];
    await eventually(async () => JSON.stringify(await shipFrom()) === JSON.stringify(moved));
  });

  it('a package created with its label ships to the account of its order, named in the label and the notification', async () => {
    const accountId = await customer('Label Customer Created', 'Oakland');
    await live.patch(`/v1/accounts/${accountId}`).send({ email: 'created@labels.example' }).expect(200);
    await stock(live, productId, locationId, 1, 4);
    const order = await confirmedOrder(live, accountId, [{ product_id: productId, quantity: 1 }]);
    const quoted = (
      await live
        .post('/v1/packages')
        .send({ order_id: order.id, weight: 2.5, location_id: locationId, items: [] })
        .expect(201)
    ).body;
    const rates = (await live.get(`/v1/packages/${quoted.id}/rates`).expect(200)).body.data as {
      carrier: string;
      service_level: string;
      rate_object_id: string;
    }[];
    const rate = rates.find((r) => r.carrier === 'ups' && r.service_level === 'ground')!;
    const pkg = (
      await live.post('/v1/packages').send({
        order_id: order.id,
        weight: 2.5,
        location_id: locationId,
        items: [{ order_item_id: order.items[0].id, quantity: 1 }],
        buy_label: true,
        rate_object_id: rate.rate_object_id,
        fulfill_after_label: true,
      })
    ).body;
    expect(pkg).toMatchObject({ status: 'shipped' });
    const file = await live.get(`/v1/packages/${pkg.id}/label`).buffer(true).parse(binary).expect(200);
    const lines = [...(file.body as Buffer).toString('latin1').matchAll(/\((.*)\) Tj/g)].map((m) => m[1]);
    expect(lines.slice(lines.indexOf('SHIP FROM:'), lines.indexOf('SHIP TO:') + 5)).toEqual([
      'SHIP FROM:',
      ...SHIP_FROM,
      'SHIP TO:',
      ...shipTo('Label Customer Created', 'Oakland'),
    ]);
    const [notification] = (await live.get(`/v1/packages/${pkg.id}/notifications`).expect(200)).body.data;
    expect(notification.recipient).toBe('created@labels.example');
    expect(notification.body).toContain('Hello Label Customer Created,');
  });

  it('ZPL II: every part is a ^FD field, the tracking number also a ^BC barcode', async () => {
    const accountId = await customer('Label Customer ZPL', 'San Francisco');
    const label = await labelFor(accountId, 'ZPLII');
    const zpl = label.body.toString('latin1');
    const fields = [...zpl.matchAll(/\^FD([^^]*)\^FS/g)].map((m) => m[1]);
    expect(fields).toEqual([
      'UPS Ground',
      `Package ${label.number}  Weight 2.5 lb`,
      'SHIP FROM:',
      ...SHIP_FROM,
      'SHIP TO:',
      ...shipTo('Label Customer ZPL', 'San Francisco'),
      label.tracking,
      `TRACKING # ${label.tracking}`,
    ]);
    expect(zpl).toContain(`^BC`);
  });

  it('PNG: a valid image, the exact drawing of these parts, and the address bands follow the address', async () => {
    const sf = await labelFor(await customer('Label Customer PNG', 'San Francisco'), 'PNG');
    const oak = await labelFor(await customer('Label Customer PNG', 'Oakland'), 'PNG');
    const rows = pngRows(sf.body);
    // The served file is the drawing of exactly these parts (text is pixels: compared whole).
    const expected = (label: typeof sf, city: string) =>
      renderLabel('PNG', {
        carrier: 'ups',
        service: 'ground',
        weightLb: '2.5',
        packageNumber: label.number,
        trackingNumber: label.tracking,
        shipFrom: SHIP_FROM,
        shipTo: shipTo('Label Customer PNG', city),
      });
    expect(sf.body.equals(expected(sf, 'San Francisco'))).toBe(true);
    expect(oak.body.equals(expected(oak, 'Oakland'))).toBe(true);
    expect(sf.body.equals(expected(sf, 'Oakland'))).toBe(false);
    // Every text band carries ink; another ship-to city changes the ship-to band and not the ship-from one.
    for (const band of Object.values(PNG_LAYOUT)) expect(inkIn(rows, band)).toBeGreaterThan(50);
    const other = pngRows(oak.body);
    const differ = (band: { top: number; bottom: number }) =>
      rows.slice(band.top, band.bottom).some((row, i) => !row.equals(other[band.top + i]));
    expect(differ(PNG_LAYOUT.shipTo)).toBe(true);
    expect(differ(PNG_LAYOUT.shipFrom)).toBe(false);
  });

  it('the barcode of the PDF (rasterised at 203 and 300 dpi) and of the PNG scans to the tracking number', async () => {
    // USPS's 22-digit numbers make the widest symbol: the one whose quiet zone was too narrow.
    const pdf = await labelFor(
      await customer('Label Customer Scan', 'San Francisco'),
      'PDF',
      'usps',
      'ground_advantage',
    );
    expect(pdf.tracking).toMatch(/^9400\d{18}$/);
    expect(pdf.body.toString('latin1')).toContain('(USPS Ground Advantage) Tj');
    for (const dpi of [203, 300]) expect(scan(pdf.body, 'PDF', dpi)).toEqual([`CODE-128:${pdf.tracking}`]);
    const png = await labelFor(
      await customer('Label Customer Scan', 'San Francisco'),
      'PNG',
      'usps',
      'ground_advantage',
    );
    expect(scan(png.body, 'PNG')).toEqual([`CODE-128:${png.tracking}`]);
  });

  it('Accept picks the file type of a drawn label; the bought type without it or for a type no label is', async () => {
    const pdf = await labelFor(await customer('Label Customer Accept', 'San Francisco'), 'PDF');
    const get = (accept?: string) => {
      const req = live.get(`/v1/packages/${pdf.packageId}/label`).buffer(true).parse(binary);
      return accept ? req.set('Accept', accept) : req;
    };
    const asPng = await get('image/png').expect(200);
    expect(asPng.headers['content-type']).toBe('image/png');
    expect(asPng.headers['content-disposition']).toContain(`${pdf.number}.png`);
    expect(asPng.headers.vary).toContain('Accept');
    expect(pngRows(asPng.body as Buffer)).toHaveLength(PNG_HEIGHT);
    expect(scan(asPng.body as Buffer, 'PNG')).toEqual([`CODE-128:${pdf.tracking}`]);
    const asZpl = await get('application/zpl;q=0.9, image/png;q=0.5').expect(200);
    expect(asZpl.headers['content-type']).toBe('application/zpl');
    expect((asZpl.body as Buffer).toString('latin1')).toContain(`^FD${pdf.tracking}^FS`);
    for (const accept of [undefined, '*/*', 'application/json']) {
      const res = await get(accept).expect(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect((res.body as Buffer).equals(pdf.body)).toBe(true);
    }
    const unrelated = await live
      .get(`/v1/packages/${pdf.packageId}/label`)
      .set('Accept', 'image/gif')
      .expect(200);
    expect(unrelated.headers['content-type']).toBe('application/pdf');
  });
});
