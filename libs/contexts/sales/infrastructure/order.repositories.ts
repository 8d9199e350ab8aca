import { Injectable } from '@nestjs/common';
import { newId } from '../../../platform/persistence/ids';
import { TenantRepository } from '../../../platform/persistence/tenant-repository';
import { TransactionHost } from '../../../platform/persistence/transaction-host';
import {
  CustomerCreditRecord,
  OrderLineRecord,
  OrderRecord,
  PaymentApplicationRecord,
  PaymentRecord,
  RefundRecord,
} from './order.entity';

@Injectable()
export class OrderRepository extends TenantRepository<OrderRecord> {
  constructor(tx: TransactionHost) {
    super(tx, OrderRecord, 'order');
  }
}

@Injectable()
export class OrderLineRepository extends TenantRepository<OrderLineRecord> {
  constructor(tx: TransactionHost) {
    super(tx, OrderLineRecord, 'order line');
  }

  /** The lines of several orders, in position order (one query). */
  async ofOrders(orderIds: readonly string[]): Promise<Map<string, OrderLineRecord[]>> {
    const result = new Map<string, OrderLineRecord[]>(orderIds.map((id) => [id, []]));
    if (orderIds.length === 0) return result;
    const rows =
      (await this.plainWhere('order_id = ANY($3::uuid[])', [[...new Set(orderIds)]], 'order_id, position')) ??
      (await this.scopedQuery('l')
        .andWhere('l.order_id IN (:...orderIds)', { orderIds: [...new Set(orderIds)] })
        .orderBy('l.order_id')
        .addOrderBy('l.position', 'ASC')
        .getMany());
    for (const row of rows) result.get(row.orderId)?.push(row);
    return result;
  }

  async deleteOfOrder(orderId: string): Promise<void> {
    await this.tx.transactional
      .createQueryBuilder()
      .delete()
      .from(OrderLineRecord)
      .where('order_id = :orderId AND entity_id = :entityId AND livemode = :livemode', {
        orderId,
        ...this.scope(),
      })
      .execute();
  }

  /** Removes the component lines of a kit line. */
  async deleteChildrenOf(lineId: string): Promise<void> {
    await this.tx.transactional
      .createQueryBuilder()
      .delete()
      .from(OrderLineRecord)
      .where('parent_line_id = :lineId AND entity_id = :entityId AND livemode = :livemode', {
        lineId,
        ...this.scope(),
      })
      .execute();
  }

  async insertMany(rows: Omit<Partial<OrderLineRecord>, 'id' | 'entityId' | 'livemode'>[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows
        .slice(i, i + 500)
        .map((r) => this.tx.transactional.getRepository(OrderLineRecord).create(this.stamp(r)));
      await this.tx.transactional.getRepository(OrderLineRecord).insert(chunk as never);
    }
  }

  private stamp(r: object): OrderLineRecord {
    return { id: newId(), ...r, ...this.scope() } as unknown as OrderLineRecord;
  }
}

@Injectable()
export class PaymentRepository extends TenantRepository<PaymentRecord> {
  constructor(tx: TransactionHost) {
    super(tx, PaymentRecord, 'payment');
  }
}

@Injectable()
export class PaymentApplicationRepository extends TenantRepository<PaymentApplicationRecord> {
  constructor(tx: TransactionHost) {
    super(tx, PaymentApplicationRecord, 'payment application');
  }

  async ofPayments(paymentIds: readonly string[]): Promise<Map<string, PaymentApplicationRecord[]>> {
    const result = new Map<string, PaymentApplicationRecord[]>(paymentIds.map((id) => [id, []]));
    if (paymentIds.length === 0) return result;
    const rows = await this.scopedQuery('a')
      .andWhere('a.payment_id IN (:...paymentIds)', { paymentIds: [...new Set(paymentIds)] })
      .orderBy('a.id', 'ASC')
      .getMany();
    for (const row of rows) result.get(row.paymentId)?.push(row);
    return result;
  }
}

@Injectable()
export class RefundRepository extends TenantRepository<RefundRecord> {
  constructor(tx: TransactionHost) {
    super(tx, RefundRecord, 'refund');
  }
}

@Injectable()
export class CustomerCreditRepository extends TenantRepository<CustomerCreditRecord> {
  constructor(tx: TransactionHost) {
    super(tx, CustomerCreditRecord, 'customer credit');
  }
}
