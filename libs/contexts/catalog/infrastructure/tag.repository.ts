import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TagRecord } from './tag.entity';

@Injectable()
export class TagRepository extends TenantRepository.of(TagRecord, 'tag') {}
