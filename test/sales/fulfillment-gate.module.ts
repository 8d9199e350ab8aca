import { ApiExcludeController } from '@nestjs/swagger';
import { Controller, HttpCode, Module, Param, Post } from '@nestjs/common';
import { RequireScopes } from '#platform/auth/decorators';
import { SalesOrders, SalesCoreModule } from '#contexts/sales';

/** Test-only route standing in for package creation: it calls the gate fulfillment will call. */
/** Test-only: outside the API description. */
@ApiExcludeController()
@Controller('test-fulfillment-gate')
export class FulfillmentGateController {
  constructor(private readonly orders: SalesOrders) {}

  @Post(':id')
  @HttpCode(200)
  @RequireScopes('orders:read')
  async check(@Param('id') id: string) {
    await this.orders.assertReadyForFulfillment(id);
    return { ready: true };
  }
}

@Module({ imports: [SalesCoreModule], controllers: [FulfillmentGateController] })
export class FulfillmentGateTestModule {}
