/** What every label shows, whatever its file type. */
export interface LabelContent {
  trackingNumber: string;
  carrier: string;
  service: string;
  packageNumber: string;
  weightLb: string;
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
