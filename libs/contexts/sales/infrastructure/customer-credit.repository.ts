import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { CustomerCreditRecord } from './order.entity';

@Injectable()
export class CustomerCreditRepository extends TenantRepository.of(CustomerCreditRecord, 'customer credit') {}
