import { LabelContent, printable } from '../../domain/label';

/** ZPL field data may not contain the command prefixes ^ and ~. */
const field = (s: string) => printable(s).replace(/[\^~]/g, ' ');

/** ZPL II for a 4 x 6 inch label at 203 dpi: text fields and a Code 128 barcode (^BC) of the tracking number. */
export function zplLabel(content: LabelContent): Buffer {
  const lines = [
    '^XA',
    '^CI0',
    '^PW812',
    '^LL1218',
    '^FO20,20^GB772,1178,4^FS',
    `^FO50,50^A0N,50,50^FD${field(`${content.carrier.toUpperCase()} ${content.service.toUpperCase()}`)}^FS`,
    `^FO50,120^A0N,28,28^FDPackage ${field(content.packageNumber)}  Weight ${field(content.weightLb)} lb^FS`,
    '^FO50,190^A0N,30,30^FDSHIP TO:^FS',
    ...content.shipTo.map((l, i) => `^FO50,${230 + i * 40}^A0N,30,30^FD${field(l)}^FS`),
    '^FO50,600^BY3',
    `^BCN,200,Y,N,N^FD${field(content.trackingNumber)}^FS`,
    '^XZ',
  ];
  return Buffer.from(lines.join('\n') + '\n', 'latin1');
}
