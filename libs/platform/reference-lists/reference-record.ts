import { Column } from 'typeorm';
import { TenantRecord } from '../persistence/columns';

/** Columns shared by every reference list: a name and a code unique per entity and mode. */
export abstract class ReferenceRecord extends TenantRecord {
  @Column('text') name: string;
  @Column('text') code: string;
}
