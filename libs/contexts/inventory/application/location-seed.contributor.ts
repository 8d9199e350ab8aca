import { Inject, Injectable } from '@nestjs/common';
import { LiveSeedContributor } from '#platform/seed/qa-seed.service';
import { ReferenceListService } from '#platform/reference-lists/reference-list.service';
import { LOCATIONS_SERVICE } from './locations';

/**
 * QA fixture `location_id` (docs/reference/qa-seed.md): the entity's first location. It runs
 * before the sales seed, whose confirmed orders commit stock at the first location.
 */
@Injectable()
export class LocationSeedContributor extends LiveSeedContributor {
  constructor(@Inject(LOCATIONS_SERVICE) private readonly locations: ReferenceListService) {
    super('locations', { before: 'sales' });
  }

  protected async fixtures(): Promise<Record<string, unknown>> {
    const location = await this.locations.create({
      name: 'QA main warehouse',
      code: 'QA-MAIN',
      type: 'warehouse',
      address: null,
    });
    return { location_id: location.id };
  }
}
