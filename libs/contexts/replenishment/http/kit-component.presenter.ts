import { KitComponentRecord } from '../infrastructure/kit-component.entity';

export const toKitComponentResource = (c: KitComponentRecord) => ({
  id: c.id,
  object: 'kit_component' as const,
  kit_product_id: c.kitProductId,
  component_product_id: c.componentProductId,
  quantity: c.quantity,
  livemode: c.livemode,
  created_at: c.createdAt.toISOString(),
  updated_at: c.updatedAt.toISOString(),
});
