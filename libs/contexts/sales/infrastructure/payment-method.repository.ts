import { Injectable } from '@nestjs/common';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { PaymentMethodRecord } from './account.entity';
import { AccountChildRepository } from './account-child.repository';

@Injectable()
export class PaymentMethodRepository extends AccountChildRepository<PaymentMethodRecord> {
  constructor(tx: TransactionHost) {
    super(tx, PaymentMethodRecord, 'payment method');
  }
}
