import { Injectable } from '@nestjs/common';
import { ServiceImporter } from '#platform/imports/import-registry';
import { AccountsService } from '../application/accounts.service';
import { CreateAccountDto } from './account.dto';

/**
 * Bulk import of accounts (`resource: "accounts"`): each record is validated as POST /accounts
 * (CreateAccountDto) and written through AccountsService: new records with createMany (same
 * rules, one account.created each), known ones with update (account.updated when they change).
 */
@Injectable()
export class AccountsImporter extends ServiceImporter<CreateAccountDto> {
  constructor(accounts: AccountsService) {
    super('accounts', CreateAccountDto, accounts);
  }
}
