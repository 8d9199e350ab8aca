import type { PostalAddress } from '#contexts/sales';

/** What every label shows, whatever its file type. */
export interface LabelContent {
  trackingNumber: string;
  carrier: string;
  service: string;
  packageNumber: string;
  weightLb: string;
  /** The shipping location: its name, then its postal address lines (empty when unknown). */
  shipFrom: string[];
  /** The customer: name, then the shipping address lines. */
  shipTo: string[];
}

/** What a label drawn by the API shows besides the package number (kept with the label). */
export type LabelDrawing = Omit<LabelContent, 'packageNumber'>;

export const LABEL_FILE_TYPES = ['PDF', 'PNG', 'ZPLII'] as const;
export type LabelFileType = (typeof LABEL_FILE_TYPES)[number];

export const CONTENT_TYPES: Record<LabelFileType, string> = {
  PDF: 'application/pdf',
  PNG: 'image/png',
  ZPLII: 'application/zpl',
};

/** Printable ASCII only: the fonts and encodings of the three formats agree on it. */
export const printable = (s: string) => s.replace(/[^\x20-\x7e]/g, '?');

/** The lines a label prints for a party: its name, then street lines, `City, REGION POSTAL`, country. */
export function addressLines(name: string, address: PostalAddress | null): string[] {
  if (!address) return [name];
  const regionPostal = [address.region, address.postal_code].filter(Boolean).join(' ');
  return [
    name,
    address.line1,
    ...(address.line2 ? [address.line2] : []),
    [address.city, regionPostal].filter(Boolean).join(', '),
    address.country,
  ];
}

/** The heading line of a label: carrier and service, upper-case (`UPS GROUND`). */
export const serviceLine = (c: Pick<LabelContent, 'carrier' | 'service'>) =>
  `${c.carrier.toUpperCase()} ${c.service.toUpperCase()}`;

/** The package and weight line of a label. */
export const packageLine = (c: Pick<LabelContent, 'packageNumber' | 'weightLb'>) =>
  `Package ${c.packageNumber}  Weight ${c.weightLb} lb`;
