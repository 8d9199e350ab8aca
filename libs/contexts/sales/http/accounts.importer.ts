import { Injectable } from '@nestjs/common';
import { BodyImporter, outcomes } from '#platform/imports/import-registry';
import { AccountsService } from '../application/accounts.service';
import { CreateAccountDto } from './account.dto';

/**
 * Bulk import of accounts (`resource: "accounts"`): each record is validated as POST /accounts
 * (CreateAccountDto) and written through AccountsService: new records with createMany (same
 * rules, one account.created each), known ones with update (account.updated when they change).
 */
@Injectable()
export class AccountsImporter extends BodyImporter<CreateAccountDto> {
  constructor(private readonly accounts: AccountsService) {
    super('accounts', CreateAccountDto);
  }

  upsert(input: CreateAccountDto, existingId: string | null) {
    return existingId ? this.accounts.update(existingId, input) : this.accounts.create(input);
  }

  async createMany(inputs: CreateAccountDto[]) {
    return outcomes(await this.accounts.createMany(inputs));
  }
}
