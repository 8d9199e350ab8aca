import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EventPublisher } from '#platform/events/event-publisher';
import { newId } from '#platform/persistence/ids';
import { money } from '#platform/domain/money';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { StockService } from '#contexts/inventory';
import { SalesOrders, RevenueRecognition, valueOfUnits } from '#contexts/sales';
import { FulfillmentError } from '../../domain/fulfillment-error';
import { packageTransition } from '../../domain/package';
import {
  assertReceiptAuthorized,
  returnTransition,
  statusAfterReceipt,
} from '../../domain/return-authorization';
import { ReturnAuthorizationRecord, ReturnReceiptLine } from '../../infrastructure/fulfillment.entities';
import { PackageItemRepository } from '../../infrastructure/package-item.repository';
import { PackageRepository } from '../../infrastructure/package.repository';
import { ReturnReceiptRepository } from '../../infrastructure/return-receipt.repository';
import { FulfillmentPostings } from '../fulfillment-postings.service';
import { OrderReader } from '../order-facts';
import { SHIPPED_STATUSES } from '../package-shipping.service';
import { PackageViews } from '../package-views.service';
import { ReturnAuthorizationRepository } from '../../infrastructure/return-authorization.repository';
import { ReturnReceiptResource, toReceiptResource } from './return.presenter';

export interface ReceiveReturnInput {
  package_id: string;
  location_id?: string;
  items: {
    package_item_id: string;
    quantity: number;
    serial_numbers?: string[];
    disposition?: 'available' | 'damaged' | 'quarantined';
  }[];
}

/**
 * Receiving returns (document_type `return`) against shipped packages: units back to stock at
 * the cost they left at (serials `returned`, then available, damaged or quarantined),
 * COGS_REVERSAL posted, and RETURN for units not invoiced yet (an invoiced unit's revenue goes
 * with the credit memo of the refund); the package `returned` once every unit came back. A
 * return made through POST /returns takes only what it authorises, from its order's packages.
 */
@Injectable()
export class ReceiveReturn {
  constructor(
    private readonly tx: TransactionHost,
    private readonly packages: PackageRepository,
    private readonly items: PackageItemRepository,
    private readonly receiptRecords: ReturnReceiptRepository,
    private readonly reader: OrderReader,
    private readonly stock: StockService,
    private readonly postings: FulfillmentPostings,
    private readonly views: PackageViews,
    private readonly events: EventPublisher,
    private readonly authorizations: ReturnAuthorizationRepository,
    private readonly revenue: RevenueRecognition,
    private readonly orders: SalesOrders,
  ) {}

  async receive(returnId: string, input: ReceiveReturnInput): Promise<ReturnReceiptResource> {
    return this.tx.run(async () => {
      const ret = await this.returnOrder(returnId);
      // A return document made without an authorisation (order routes, an import) has none.
      const authorization = (await this.authorizations.findById(ret.id))
        ? await this.authorizations.getForUpdate(ret.id)
        : null;
      if (authorization) returnTransition('receive', authorization.status, authorization.id);
      if (ret.orderStatus !== 'confirmed')
        throw new FulfillmentError('invalid_state', {
          hint: `Return '${ret.id}' has order_status '${ret.orderStatus}'; goods are received against a confirmed return.`,
        });
      const found = await this.packages.findById(input.package_id);
      if (!found)
        throw new FulfillmentError('parameter_invalid', {
          param: 'package_id',
          hint: `No package with id '${input.package_id}' exists for this entity and mode.`,
        });
      await this.packages.lockOrder(found.orderId);
      const pkg = await this.packages.getForUpdate(found.id);
      const order = await this.reader.order(pkg.orderId);
      if (order.accountId !== ret.accountId)
        throw new FulfillmentError('parameter_invalid', {
          param: 'package_id',
          hint: `Package '${pkg.id}' was shipped to another account than the return's.`,
        });
      packageTransition('return', pkg.status, pkg.id);
      const items = (await this.items.ofPackages([pkg.id])).get(pkg.id) ?? [];
      const locationId = input.location_id ?? pkg.locationId!;
      const lines: ReturnReceiptLine[] = [];
      const seen = new Set<string>();
      for (const [index, wanted] of input.items.entries()) {
        const item = items.find((i) => i.id === wanted.package_item_id);
        if (!item)
          throw new FulfillmentError('parameter_invalid', {
            param: `items[${index}].package_item_id`,
            hint: `Package item '${wanted.package_item_id}' is not an item of package '${pkg.id}'.`,
          });
        if (seen.has(item.id))
          throw new FulfillmentError('parameter_invalid', {
            param: `items[${index}].package_item_id`,
            hint: `Package item '${item.id}' appears more than once.`,
          });
        seen.add(item.id);
        const left = item.quantity - item.returnedQuantity;
        if (wanted.quantity > left)
          throw new FulfillmentError('quantity_exceeds_remaining', {
            param: `items[${index}].quantity`,
            hint: `Package item '${item.id}' has ${left} unit(s) not yet returned; ${wanted.quantity} received.`,
            details: { remaining_quantity: left },
          });
        const serials = wanted.serial_numbers ?? [];
        if (item.serialNumbers.length) {
          const open = item.serialNumbers.filter((s) => !item.returnedSerials.includes(s));
          const stray = serials.find((s) => !open.includes(s));
          if (
            serials.length !== wanted.quantity ||
            stray !== undefined ||
            new Set(serials).size !== serials.length
          )
            throw new FulfillmentError('parameter_invalid', {
              param: `items[${index}].serial_numbers`,
              hint: `Send one serial per returned unit, each shipped in this item and not returned yet (open: ${open.join(', ')}).`,
            });
        } else if (serials.length) {
          throw new FulfillmentError('parameter_invalid', {
            param: `items[${index}].serial_numbers`,
            hint: 'This item shipped without serial numbers.',
          });
        }
        lines.push({
          package_item_id: item.id,
          order_item_id: item.orderItemId,
          product_id: item.productId,
          quantity: wanted.quantity,
          unit_cost: (item.unitCost ?? money(0)).toFixed(4),
          serial_numbers: serials,
          disposition: wanted.disposition ?? 'available',
        });
      }
      if (authorization)
        assertReceiptAuthorized(
          authorization,
          order.id,
          lines.map((l) => ({ orderItemId: l.order_item_id, quantity: l.quantity })),
        );
      const receipt = await this.receiptRecords.create({
        returnOrderId: ret.id,
        packageId: pkg.id,
        orderId: order.id,
        locationId,
        lines,
        totalValue: money(0),
        revenueReversed: money(0),
      });
      const { totalValue } = await this.stock.receiveReturn({
        returnId: receipt.id,
        orderId: order.id,
        lines: lines.map((l) => ({
          orderItemId: l.order_item_id,
          productId: l.product_id,
          locationId,
          quantity: l.quantity,
          unitCost: l.unit_cost,
          serialNumbers: l.serial_numbers.length ? l.serial_numbers : undefined,
          disposition: l.disposition,
        })),
      });
      // Value received back (what a refund may give back): the share last recognised for those units of their line.
      const shipped = await this.items.unitsByLine(order.id, SHIPPED_STATUSES);
      const returnedBefore = await this.items.returnedByLine(order.id);
      let net = money(0);
      let tax = money(0);
      for (const l of lines) {
        const line = order.lines.find((o) => o.id === l.order_item_id);
        if (!line) continue;
        const kept = (shipped.get(line.id) ?? 0) - (returnedBefore.get(line.id) ?? 0);
        const after = valueOfUnits(line, kept);
        const before = valueOfUnits(line, kept - l.quantity);
        const share = { net: after.net.minus(before.net), tax: after.tax.minus(before.tax) };
        returnedBefore.set(line.id, (returnedBefore.get(line.id) ?? 0) + l.quantity);
        net = net.plus(share.net);
        tax = tax.plus(share.tax);
      }
      for (const l of lines) {
        const item = items.find((i) => i.id === l.package_item_id)!;
        item.returnedQuantity += l.quantity;
        item.returnedSerials = [...item.returnedSerials, ...l.serial_numbers];
        await this.items.save(item);
      }
      // Revenue reversed is sales' rule: units billed already keep their revenue until the refund's credit memo.
      const { recognized } = await this.revenue.returned(
        order.id,
        receipt.id,
        lines.map((l) => ({ orderLineId: l.order_item_id, units: l.quantity })),
      );
      const reversed = { net: recognized.net.negated(), tax: recognized.tax.negated() };
      receipt.totalValue = money(totalValue);
      receipt.revenueReversed = reversed.net.plus(reversed.tax);
      await this.receiptRecords.save(receipt);
      const batchId = newId();
      await this.postings.cogsReversal(receipt.id, pkg.packageNumber, money(totalValue), batchId);
      await this.postings.returnRevenue(receipt.id, pkg.packageNumber, reversed.net, reversed.tax, batchId);
      if (authorization) await this.recordOnReturn(authorization, lines, { net, tax });
      if (items.every((i) => i.returnedQuantity >= i.quantity)) {
        const previous = pkg.status;
        pkg.status = packageTransition('return', pkg.status, pkg.id);
        pkg.returnedAt = new Date();
        await this.packages.save(pkg);
        await this.events.publish('fulfillment.package.updated', await this.views.presentOne(pkg), {
          status: previous,
          returned_at: null,
        });
      }
      const resource = toReceiptResource(receipt, pkg.status);
      await this.events.publish('return.received', resource);
      return resource;
    });
  }

  /** Records a receipt on its return: units and value back, the status; the return document is fulfilled once everything is back. */
  private async recordOnReturn(
    record: ReturnAuthorizationRecord,
    lines: readonly ReturnReceiptLine[],
    value: { net: Decimal; tax: Decimal },
  ): Promise<void> {
    record.lines = record.lines.map((l) => ({
      ...l,
      received_quantity:
        l.received_quantity +
        lines
          .filter((r) => r.order_item_id === l.order_item_id)
          .reduce((sum, r) => sum + Math.floor(Number(r.quantity)), 0),
    }));
    record.receivedNet = record.receivedNet.plus(value.net);
    record.receivedTax = record.receivedTax.plus(value.tax);
    record.status = statusAfterReceipt(record);
    if (record.status === 'received') record.receivedAt = new Date();
    await this.authorizations.save(record);
    if (record.status === 'received') await this.orders.markFulfilled(record.id);
  }

  /** The return order `id`: 404 naming a return when there is no order with that id, or it is not a return. */
  private async returnOrder(id: string) {
    const order = await this.reader.findOrder(id);
    if (!order || order.documentType !== 'return')
      throw new FulfillmentError('not_found', {
        hint: `No return with id '${id}' exists for this entity and mode.`,
      });
    return order;
  }
}
