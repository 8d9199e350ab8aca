import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { QaSeedService } from '../../../platform/seed/qa-seed.service';
import { AccountsService } from './accounts.service';
import { PricingPoliciesService } from './pricing-policies.service';
import { ReferenceListService } from './reference-list.service';
import { LOCATIONS_SERVICE } from './tokens';

/** The sales fixtures of the QA seed: account_id with payment_method_ids, location_id, pricing_policy_id. */
@Injectable()
export class SalesSeed implements OnModuleInit {
  constructor(
    private readonly seed: QaSeedService,
    private readonly accounts: AccountsService,
    private readonly policies: PricingPoliciesService,
    @Inject(LOCATIONS_SERVICE) private readonly locations: ReferenceListService,
  ) {}

  onModuleInit(): void {
    this.seed.register({
      name: 'sales',
      seed: ({ as }) =>
        as('live', async () => {
          const location = await this.locations.create({
            name: 'QA main warehouse',
            code: 'QA-MAIN',
            type: 'warehouse',
            address: null,
          });
          const account = await this.accounts.create({
            name: 'QA Customer Inc',
            email: 'buyer@qa-customer.example',
            credit_limit: 10000,
          });
          await this.accounts.addresses.create(account.id, {
            type: 'billing',
            line1: '1 Main St',
            city: 'Springfield',
            country: 'US',
          });
          await this.accounts.contacts.create(account.id, {
            name: 'Quinn Buyer',
            email: 'quinn@qa-customer.example',
          });
          const first = await this.accounts.paymentMethods.create(account.id, {
            type: 'card',
            card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: new Date().getUTCFullYear() + 5 },
          });
          const second = await this.accounts.paymentMethods.create(account.id, {
            type: 'bank_account',
            bank_account: { bank_name: 'QA Bank', last4: '6789' },
          });
          const policy = await this.policies.create({
            name: 'QA customer 10% off',
            kind: 'percentage_off',
            value: 10,
            account_id: account.id,
          });
          return {
            account_id: account.id,
            payment_method_ids: [first.id, second.id],
            location_id: location.id,
            pricing_policy_id: policy.id,
          };
        }),
    });
  }
}
