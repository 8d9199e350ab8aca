import { referenceListController } from '#platform/reference-lists/reference-lists.controller';
import { LOCATIONS } from '../application/locations';
import { CreateLocationDto, LocationResponse, UpdateLocationDto } from './location.dto';

/** The five routes of the locations reference list (/v1/locations). */
export const LocationsController = referenceListController({
  definition: LOCATIONS,
  path: 'locations',
  scope: 'locations',
  tag: 'Locations',
  create: CreateLocationDto,
  update: UpdateLocationDto,
  response: LocationResponse,
});
