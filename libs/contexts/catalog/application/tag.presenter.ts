import { TagRecord } from '../infrastructure/tag.entity';
import { resourceTimestamps } from '#platform/http/resource-fields';

export interface TagResource {
  id: string;
  object: 'tag';
  name: string;
  color: string | null;
  livemode: boolean;
  created_at: string;
  updated_at: string;
}

export const toTagResource = (tag: TagRecord): TagResource => ({
  id: tag.id,
  object: 'tag',
  name: tag.name,
  color: tag.color,
  ...resourceTimestamps(tag),
});
