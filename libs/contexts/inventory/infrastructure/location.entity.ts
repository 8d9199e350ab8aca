import { Column, Entity } from 'typeorm';
import { PostalAddress } from '#platform/reference-lists/postal-address';
import { ReferenceRecord } from '#platform/reference-lists/reference-record';

/** A place that holds stock (warehouse, store, virtual): a reference list of the entity. */
@Entity({ name: 'locations' })
export class LocationRecord extends ReferenceRecord {
  @Column('text') type: string;
  @Column('jsonb', { nullable: true }) address: PostalAddress | null;
}
