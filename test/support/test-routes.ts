import { ApiExcludeController } from '@nestjs/swagger';
import { Controller, Get, HttpCode, Module, Post, Query } from '@nestjs/common';
import { Public, RequireScopes } from '#platform/auth/decorators';

/** A route needing two scopes, like charging a payment against an order. */
/** Test-only: outside the API description. */
@ApiExcludeController()
@Controller('test-two-scope')
export class TwoScopeController {
  @Post()
  @HttpCode(201)
  @RequireScopes('orders:write', 'payments:write')
  echo() {
    return { ok: true };
  }
}

@Module({ controllers: [TwoScopeController] })
export class TwoScopeTestModule {}

/** A route that forgot its scope policy: neither @RequireScopes() nor @Public(). */
/** Test-only: outside the API description. */
@ApiExcludeController()
@Controller('test-undeclared')
export class UndeclaredController {
  @Post()
  echo() {
    return { ok: true };
  }
}

@Module({ controllers: [UndeclaredController] })
export class UndeclaredTestModule {}

/** A public route that answers after a delay, to observe shutdown with a request in flight. */
/** Test-only: outside the API description. */
@ApiExcludeController()
@Controller('test-slow')
export class SlowController {
  /** Requests whose handler has started. */
  static started = 0;

  @Get()
  @Public()
  async slow(@Query('ms') ms?: string) {
    SlowController.started++;
    await new Promise((resolve) => setTimeout(resolve, Number(ms ?? 300)));
    return { done: true };
  }
}

@Module({ controllers: [SlowController] })
export class SlowTestModule {}
