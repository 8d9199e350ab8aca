import { Injectable, OnModuleInit } from '@nestjs/common';
import { money } from '#platform/persistence/money';
import { RecognizedRevenueGateway } from '#contexts/sales';
import { recognizedShare } from '../domain/revenue';
import { PackageItemRepository } from '../infrastructure/package-item.repository';
import { OrderReader } from './order-facts';
import { SHIPPED_STATUSES } from './package-shipping.service';

/**
 * Tells sales how much of a sales order's revenue fulfillment recognised (units shipped less
 * units returned, per line), so an invoice converted from it posts only the rest.
 */
@Injectable()
export class RevenueRecognitionRegistration implements OnModuleInit {
  constructor(
    private readonly gateway: RecognizedRevenueGateway,
    private readonly items: PackageItemRepository,
    private readonly reader: OrderReader,
  ) {}

  onModuleInit(): void {
    this.gateway.register({
      recognizedFor: async (orderId) => {
        const shipped = await this.items.unitsByLine(orderId, SHIPPED_STATUSES);
        let net = money(0);
        let tax = money(0);
        if (shipped.size === 0) return { net, tax };
        const returned = await this.items.returnedByLine(orderId);
        const order = await this.reader.order(orderId);
        for (const line of order.lines) {
          const kept = (shipped.get(line.id) ?? 0) - (returned.get(line.id) ?? 0);
          if (kept <= 0) continue;
          const share = recognizedShare(line, 0, kept);
          net = net.plus(share.net);
          tax = tax.plus(share.tax);
        }
        return { net, tax };
      },
    });
  }
}
