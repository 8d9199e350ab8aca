import { LabelContent, LabelFileType } from '../../domain/label';
import { pdfLabel } from './pdf-label';
import { pngLabel } from './png-label';
import { zplLabel } from './zpl-label';

/** The label file of one type. */
export function renderLabel(type: LabelFileType, content: LabelContent): Buffer {
  if (type === 'PNG') return pngLabel(content);
  if (type === 'ZPLII') return zplLabel(content);
  return pdfLabel(content);
}
