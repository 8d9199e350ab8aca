import type { PostalAddress } from '#contexts/sales';
import { serviceDisplayName } from './carrier-service';

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

/**
 * The label type an `Accept` header asks for among `available` (the first is the type the label
 * was bought in): media ranges in order of their q value (ties keep the header's order); `*\/*`
 * or no header is the bought type; a header naming no label type at all (`application/json`
 * from a generic client) is the bought type too; null when it names only types not available
 * or refuses them all with q=0.
 */
export function negotiateLabelType(
  accept: string | undefined,
  available: readonly LabelFileType[],
): LabelFileType | null {
  if (!accept || !accept.trim()) return available[0];
  const ranges = accept
    .split(',')
    .map((part, index) => {
      const [range, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
      const q = params.find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { range, weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((r) => r.range && r.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  const byType = Object.entries(CONTENT_TYPES) as [LabelFileType, string][];
  const namesLabelType = accept
    .toLowerCase()
    .split(',')
    .some((part) => {
      const range = part.split(';')[0].trim();
      return range === '*/*' || byType.some(([, ct]) => ct === range || ct.split('/')[0] + '/*' === range);
    });
  if (!namesLabelType) return available[0];
  for (const { range } of ranges) {
    if (range === '*/*') return available[0];
    const match = available.find((t) => {
      const ct = CONTENT_TYPES[t];
      return ct === range || `${ct.split('/')[0]}/*` === range;
    });
    if (match) return match;
  }
  return null;
}

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

/** The heading line of a label: the service's display name (`USPS Ground Advantage`), not its code. */
export const serviceLine = (c: Pick<LabelContent, 'carrier' | 'service'>) =>
  serviceDisplayName(c.carrier, c.service);

/** The package and weight line of a label. */
export const packageLine = (c: Pick<LabelContent, 'packageNumber' | 'weightLb'>) =>
  `Package ${c.packageNumber}  Weight ${c.weightLb} lb`;
