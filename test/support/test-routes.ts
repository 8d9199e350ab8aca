import { Controller, HttpCode, Module, Post } from '@nestjs/common';
import { RequireScopes } from '../../libs/platform/auth/decorators';

/** A route needing two scopes, as SPEC.md's "charge a payment against an order" will. */
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
@Controller('test-undeclared')
export class UndeclaredController {
  @Post()
  echo() {
    return { ok: true };
  }
}

@Module({ controllers: [UndeclaredController] })
export class UndeclaredTestModule {}
