import { LabelContent, packageLine, printable, serviceLine } from '../../domain/label';

/** ZPL field data may not contain the command prefixes ^ and ~. */
const field = (s: string) => printable(s).replace(/[\^~]/g, ' ');

/**
 * ZPL II for a 4 x 6 inch label at 203 dpi: carrier and service, package number and weight, the
 * SHIP FROM and SHIP TO blocks (one ^FD field per line), a Code 128 barcode (^BC, printed by the
 * printer) of the tracking number with its interpretation line, and the tracking number again
 * as a text field.
 */
export function zplLabel(content: LabelContent): Buffer {
  const lines = [
    '^XA',
    '^CI0',
    '^PW812',
    '^LL1218',
    '^FO20,20^GB772,1178,4^FS',
    `^FO50,50^A0N,50,50^FD${field(serviceLine(content))}^FS`,
    `^FO50,120^A0N,28,28^FD${field(packageLine(content))}^FS`,
    '^FO20,165^GB772,0,3^FS',
    '^FO50,185^A0N,22,22^FDSHIP FROM:^FS',
    ...content.shipFrom.slice(0, 6).map((l, i) => `^FO50,${215 + i * 28}^A0N,24,24^FD${field(l)}^FS`),
    '^FO20,390^GB772,0,3^FS',
    '^FO50,410^A0N,30,30^FDSHIP TO:^FS',
    ...content.shipTo.slice(0, 6).map((l, i) => `^FO70,${455 + i * 42}^A0N,36,36^FD${field(l)}^FS`),
    '^FO20,720^GB772,0,3^FS',
    '^FO50,750^BY3',
    `^BCN,250,Y,N,N,A^FD${field(content.trackingNumber)}^FS`,
    `^FO50,1090^A0N,28,28^FDTRACKING # ${field(content.trackingNumber)}^FS`,
    '^XZ',
  ];
  return Buffer.from(lines.join('\n') + '\n', 'latin1');
}
