import { Injectable, OnModuleInit } from '@nestjs/common';
import { ImportRegistry, outcomes, validateAs } from '#platform/imports/import-registry';
import { AccountsService } from '../application/accounts.service';
import { CreateAccountDto } from './account.dto';

/**
 * Bulk import of accounts (`resource: "accounts"`): each record is validated as POST /accounts
 * (CreateAccountDto) and written through AccountsService: new records with createMany (same
 * rules, one account.created each), known ones with update (account.updated when they change).
 */
@Injectable()
export class AccountsImporter implements OnModuleInit {
  constructor(
    private readonly registry: ImportRegistry,
    private readonly accounts: AccountsService,
  ) {}

  onModuleInit(): void {
    this.registry.register<CreateAccountDto>({
      resource: 'accounts',
      validate: (record) => validateAs(CreateAccountDto, record),
      upsert: (input, existingId) =>
        existingId ? this.accounts.update(existingId, input) : this.accounts.create(input),
      createMany: async (inputs) => outcomes(await this.accounts.createMany(inputs)),
    });
  }
}
