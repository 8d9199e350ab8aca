import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { FreezeHistoryRecord } from './freeze.entity';

@Injectable()
export class FreezeHistoryRepository extends TenantRepository.of(
  FreezeHistoryRecord,
  'freeze history entry',
) {}
