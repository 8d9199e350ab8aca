import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { FiscalYearRecord } from './accounting.entities';

@Injectable()
export class FiscalYearRepository extends TenantRepository.of(FiscalYearRecord, 'fiscal year') {}
