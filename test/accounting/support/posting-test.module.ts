import { ApiExcludeController } from '@nestjs/swagger';
import { Body, Controller, Module, Post } from '@nestjs/common';
import { AccountingCoreModule, LedgerPostingService, PostingRequest } from '#contexts/accounting';
import { RequireScopes } from '#platform/auth/decorators';
import { TransactionHost } from '#platform/persistence/transaction-host';

/**
 * Test-only route standing in for another context: it calls the posting service inside its
 * own transaction, optionally failing after the posting to show the entry rolls back with it.
 */
/** Test-only: outside the API description. */
@ApiExcludeController()
@Controller('test-ledger-postings')
export class PostingTestController {
  constructor(
    private readonly posting: LedgerPostingService,
    private readonly tx: TransactionHost,
  ) {}

  @Post()
  @RequireScopes('accounting:write')
  post(@Body() body: PostingRequest & { fail_after?: boolean }) {
    const { fail_after, ...request } = body;
    return this.tx.run(async () => {
      const entry = await this.posting.post(request);
      if (fail_after) throw new Error('caller failed after posting');
      return entry;
    });
  }
}

@Module({ imports: [AccountingCoreModule], controllers: [PostingTestController] })
export class PostingTestModule {}
