import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { money } from '#platform/persistence/money';

/** Revenue (net of discounts) and sales tax of an order already recognised elsewhere. */
export interface RecognizedRevenue {
  net: Decimal;
  tax: Decimal;
}

/** A context that recognises revenue of sales orders itself (fulfillment, when units ship). */
export interface RecognizedRevenueSource {
  recognizedFor(orderId: string): Promise<RecognizedRevenue>;
}

/**
 * Lets an invoice converted from a sales order post only what was not recognised yet, so a
 * quantity's revenue is recognised once (docs/api-decisions.md, "Sales: invoices of fulfilled
 * sales orders"). The fulfillment context registers itself at start-up; sales never imports it.
 */
@Injectable()
export class RecognizedRevenueGateway {
  private readonly sources: RecognizedRevenueSource[] = [];

  register(source: RecognizedRevenueSource): void {
    this.sources.push(source);
  }

  async recognizedFor(orderId: string): Promise<RecognizedRevenue> {
    let net = money(0);
    let tax = money(0);
    for (const source of this.sources) {
      const r = await source.recognizedFor(orderId);
      net = net.plus(r.net);
      tax = tax.plus(r.tax);
    }
    return { net, tax };
  }
}
