import { postalAddress } from '#platform/reference-lists/postal-address';
import {
  assignNameAndCode,
  copyFields,
  ReferenceListDefinition,
  referenceListToken,
} from '#platform/reference-lists/reference-list.service';
import { LocationRecord } from '../infrastructure/location.entity';

/** The locations reference list: where stock is held. */
export const LOCATIONS: ReferenceListDefinition<LocationRecord> = {
  object: 'location',
  label: 'location',
  entity: LocationRecord,
  nullable: ['address'],
  assign(record, input) {
    assignNameAndCode(record, input);
    copyFields(record, input, { type: 'type', address: 'address' }, (field, v) =>
      field === 'address' ? postalAddress(v) : v,
    );
    if (record.address === undefined) record.address = null;
  },
  present: (r) => ({ type: r.type, address: r.address }),
};

/** The locations service (a ReferenceListService): stock movements, packages and builds check their location ids against it. */
export const LOCATIONS_SERVICE = referenceListToken(LOCATIONS.object);
