import { KitComponentRecord } from '../infrastructure/kit-component.entity';
import { resourceTimestamps } from '#platform/http/resource-fields';

export const toKitComponentResource = (c: KitComponentRecord) => ({
  id: c.id,
  object: 'kit_component' as const,
  kit_product_id: c.kitProductId,
  component_product_id: c.componentProductId,
  quantity: c.quantity,
  ...resourceTimestamps(c),
});
