import { CrossFieldRules } from '#platform/http/cross-field-rules';
import { ApiProperty } from '@nestjs/swagger';
import {
  NullableEnum,
  NullableText,
  NullableUuid,
  OptionalCurrency,
  OptionalEnum,
  OptionalField,
  OptionalUuid,
  RequiredEnum,
  RequiredList,
  RequiredMoney,
  RequiredUuid,
} from '#platform/http/dto-fields';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { ListResponseOf, ResourceResponse } from '#platform/http/response-schema';
import { BANK_TRANSACTION_STATUSES, BANK_TRANSACTION_TYPES, UNAPPLIED_ROUTES } from '../domain/bank-deposit';
import { IsCalendarDate } from './calendar-date.validator';

const POSITIVE = 0.0001;

export class BankTransactionInputDto {
  @RequiredUuid({
    description: 'A bank ledger account: asset, flagged is_bank or holding the cash control role.',
  })
  bank_account_id: string;
  @RequiredEnum(BANK_TRANSACTION_TYPES) type: (typeof BANK_TRANSACTION_TYPES)[number];
  @RequiredMoney(POSITIVE, { example: 1250.5, description: 'Positive; the type gives the direction.' })
  amount: number;
  @ApiProperty({ example: '2026-11-20' }) @IsCalendarDate() transaction_date: string;
  @OptionalCurrency({ example: 'USD', description: "Defaults to the entity's base currency." })
  currency?: string;
  @NullableText(1000) description?: string | null;
  @NullableText(200, { example: 'DEP-20261120-1' }) reference?: string | null;
}

export class ImportBankTransactionsDto {
  @RequiredList(BankTransactionInputDto, 1, 500, {
    description: '1 to 500 transactions, imported all or none.',
  })
  transactions: BankTransactionInputDto[];
}

export class BankTransactionListQuery extends ListQueryDto {
  @OptionalUuid() bank_account_id?: string;
  @OptionalEnum(BANK_TRANSACTION_TYPES) type?: string;
  @OptionalEnum(BANK_TRANSACTION_STATUSES) status?: string;
  @OptionalField({ example: '2026-11-01', description: 'transaction_date on or after' }, IsCalendarDate())
  date_from?: string;
  @OptionalField({ example: '2026-11-30', description: 'transaction_date on or before' }, IsCalendarDate())
  date_to?: string;
}

export class DepositApplicationDto {
  @RequiredUuid() invoice_id: string;
  @RequiredMoney(POSITIVE, { example: 500, description: 'Greater than 0, at most the invoice amount due.' })
  amount: number;
}

@CrossFieldRules({
  kind: 'distinct',
  field: 'applications',
  key: 'invoice_id',
  param: 'applications',
  sentence: 'Each invoice appears once in applications (invoice_id differs from application to application).',
})
export class MatchDepositDto {
  @RequiredUuid({ description: 'The customer account the deposit pays.' }) account_id: string;
  @RequiredList(DepositApplicationDto, 1, 500) applications: DepositApplicationDto[];
  @NullableEnum(UNAPPLIED_ROUTES, {
    description: 'Required when the applications leave part of the deposit.',
  })
  route_unapplied?: (typeof UNAPPLIED_ROUTES)[number] | null;
  @NullableUuid() reconciliation_id?: string | null;
  @NullableText(100, { example: 'ach' }) payment_method?: string | null;
}

export class DepositMatchResponse {
  @ApiProperty({ format: 'uuid' }) account_id: string;
  @ApiProperty({ example: 'pay_0193...' }) payment_id: string;
  @ApiProperty({ format: 'uuid' }) journal_entry_id: string;
  @ApiProperty({ example: 1000 }) applied_amount: number;
  @ApiProperty({ example: 250 }) unapplied_amount: number;
  @ApiProperty({ enum: UNAPPLIED_ROUTES, nullable: true, type: String }) route_unapplied: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) reconciliation_id: string | null;
  @ApiProperty({ nullable: true, type: String }) payment_method: string | null;
  @ApiProperty({ type: [DepositApplicationDto] }) applications: DepositApplicationDto[];
}

@ResourceResponse('bank_transaction')
export class BankTransactionResponse {
  @ApiProperty({ format: 'uuid' }) bank_account_id: string;
  @ApiProperty({ enum: BANK_TRANSACTION_TYPES }) type: string;
  @ApiProperty({ example: 1250 }) amount: number;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ example: '2026-11-20' }) transaction_date: string;
  @ApiProperty({ nullable: true, type: String }) description: string | null;
  @ApiProperty({ nullable: true, type: String }) reference: string | null;
  @ApiProperty({ enum: BANK_TRANSACTION_STATUSES }) status: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) matched_at: string | null;
  @ApiProperty({ type: DepositMatchResponse, nullable: true }) match: DepositMatchResponse | null;
  @ApiProperty({ nullable: true, type: String }) payment_id: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) journal_entry_id: string | null;
}

export class BankTransactionListResponse extends ListResponseOf(
  BankTransactionResponse,
  '/v1/accounting/bank-transactions',
) {}
