import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { ListQueryDto } from '../../../platform/http/list/list-query.dto';
import { SUBLEDGERS } from '../application/subledger-reconciliation.service';
import { BANK_TRANSACTION_STATUSES, BANK_TRANSACTION_TYPES, UNAPPLIED_ROUTES } from '../domain/bank-deposit';
import { IsCalendarDate } from './accounting.dto';
import { IsMoneyAmount } from '../../../platform/http/money.validator';

const POSITIVE = 0.0001;

// Bank transactions

export class BankTransactionInputDto {
  @ApiProperty({
    format: 'uuid',
    description: 'A bank ledger account: asset, flagged is_bank or holding the cash control role.',
  })
  @IsUUID()
  bank_account_id: string;
  @ApiProperty({ enum: BANK_TRANSACTION_TYPES })
  @IsIn(BANK_TRANSACTION_TYPES)
  type: (typeof BANK_TRANSACTION_TYPES)[number];
  @ApiProperty({ example: 1250.5, description: 'Positive; the type gives the direction.' })
  @IsMoneyAmount()
  @Min(POSITIVE)
  amount: number;
  @ApiProperty({ example: '2026-11-20' }) @IsCalendarDate() transaction_date: string;
  @ApiPropertyOptional({ example: 'USD', description: "Defaults to the entity's base currency." })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Z]{3}$/)
  currency?: string;
  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(1000)
  description?: string | null;
  @ApiPropertyOptional({ nullable: true, example: 'DEP-20261120-1' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(200)
  reference?: string | null;
}

export class ImportBankTransactionsDto {
  @ApiProperty({
    type: [BankTransactionInputDto],
    description: '1 to 500 transactions, imported all or none.',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(500)
  @ValidateNested({ each: true })
  @Type(() => BankTransactionInputDto)
  transactions: BankTransactionInputDto[];
}

export class BankTransactionListQuery extends ListQueryDto {
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() bank_account_id?: string;
  @ApiPropertyOptional({ enum: BANK_TRANSACTION_TYPES })
  @IsOptional()
  @IsIn(BANK_TRANSACTION_TYPES)
  type?: string;
  @ApiPropertyOptional({ enum: BANK_TRANSACTION_STATUSES })
  @IsOptional()
  @IsIn(BANK_TRANSACTION_STATUSES)
  status?: string;
  @ApiPropertyOptional({ example: '2026-11-01', description: 'transaction_date on or after' })
  @IsOptional()
  @IsCalendarDate()
  date_from?: string;
  @ApiPropertyOptional({ example: '2026-11-30', description: 'transaction_date on or before' })
  @IsOptional()
  @IsCalendarDate()
  date_to?: string;
}

export class DepositApplicationDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() invoice_id: string;
  @ApiProperty({ example: 500, description: 'Greater than 0, at most the invoice amount due.' })
  @IsMoneyAmount()
  @Min(POSITIVE)
  amount: number;
}

export class MatchDepositDto {
  @ApiProperty({ format: 'uuid', description: 'The customer account the deposit pays.' })
  @IsUUID()
  account_id: string;
  @ApiProperty({ type: [DepositApplicationDto] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(500)
  @ValidateNested({ each: true })
  @Type(() => DepositApplicationDto)
  applications: DepositApplicationDto[];
  @ApiPropertyOptional({
    enum: UNAPPLIED_ROUTES,
    nullable: true,
    description: 'Required when the applications leave part of the deposit.',
  })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsIn(UNAPPLIED_ROUTES)
  route_unapplied?: (typeof UNAPPLIED_ROUTES)[number] | null;
  @ApiPropertyOptional({ format: 'uuid', nullable: true })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  reconciliation_id?: string | null;
  @ApiPropertyOptional({ nullable: true, example: 'ach' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(100)
  payment_method?: string | null;
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

export class BankTransactionResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'bank_transaction' }) object: string;
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
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class BankTransactionListResponse {
  @ApiProperty({ example: 'list' }) object: string;
  @ApiProperty({ type: [BankTransactionResponse] }) data: BankTransactionResponse[];
  @ApiProperty({ example: false }) has_more: boolean;
  @ApiProperty({ example: '/v1/accounting/bank-transactions' }) url: string;
  @ApiPropertyOptional({ type: 'integer', description: 'Only with include_count=true.' })
  total_count?: number;
}

// Vendor bills

export class CreateVendorBillDto {
  @ApiProperty({ example: 'Acme Supplies' }) @IsString() @IsNotEmpty() @MaxLength(200) vendor_name: string;
  @ApiPropertyOptional({ nullable: true, example: 'INV-7781' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(100)
  bill_number?: string | null;
  @ApiPropertyOptional({ example: '2026-11-20', description: 'Defaults to the business day.' })
  @IsOptional()
  @IsCalendarDate()
  bill_date?: string;
  @ApiPropertyOptional({ nullable: true, example: '2026-12-20' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsCalendarDate()
  due_date?: string | null;
  @ApiPropertyOptional({ example: 'USD' }) @IsOptional() @IsString() @Matches(/^[A-Z]{3}$/) currency?: string;
  @ApiProperty({ example: 830.25 }) @IsMoneyAmount() @Min(POSITIVE) amount: number;
  @ApiProperty({ format: 'uuid', description: 'The expense or inventory ledger account debited.' })
  @IsUUID()
  debit_account_id: string;
  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(1000)
  description?: string | null;
}

export class VendorBillPaymentDto {
  @ApiProperty({ example: 400 }) @IsMoneyAmount() @Min(POSITIVE) amount: number;
  @ApiPropertyOptional({
    example: '2026-11-21',
    description: 'Defaults to the business day; not before the bill date.',
  })
  @IsOptional()
  @IsCalendarDate()
  payment_date?: string;
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'The bank account credited; defaults to the cash control account.',
  })
  @IsOptional()
  @IsUUID()
  bank_account_id?: string;
  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(200)
  reference?: string | null;
}

export class VendorBillListQuery extends ListQueryDto {
  @ApiPropertyOptional({ enum: ['open', 'partially_paid', 'paid', 'voided'] })
  @IsOptional()
  @IsIn(['open', 'partially_paid', 'paid', 'voided'])
  status?: string;
}

export class VendorBillPaymentResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'vendor_bill_payment' }) object: string;
  @ApiProperty({ format: 'uuid' }) vendor_bill_id: string;
  @ApiProperty({ example: 400 }) amount: number;
  @ApiProperty({ example: '2026-11-21' }) payment_date: string;
  @ApiProperty({ format: 'uuid' }) bank_account_id: string;
  @ApiProperty({ nullable: true, type: String }) reference: string | null;
  @ApiProperty({ format: 'uuid' }) journal_entry_id: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class VendorBillResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'vendor_bill' }) object: string;
  @ApiProperty({ example: 'Acme Supplies' }) vendor_name: string;
  @ApiProperty({ nullable: true, type: String }) bill_number: string | null;
  @ApiProperty({ example: '2026-11-20' }) bill_date: string;
  @ApiProperty({ nullable: true, type: String }) due_date: string | null;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ example: 830.25 }) amount: number;
  @ApiProperty({ example: 400 }) amount_paid: number;
  @ApiProperty({ example: 430.25 }) amount_due: number;
  @ApiProperty({ enum: ['open', 'partially_paid', 'paid', 'voided'] }) status: string;
  @ApiProperty({ format: 'uuid' }) debit_account_id: string;
  @ApiProperty({ nullable: true, type: String }) description: string | null;
  @ApiProperty({ format: 'uuid' }) journal_entry_id: string;
  @ApiProperty({ nullable: true, type: String }) voided_on: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) void_journal_entry_id: string | null;
  @ApiPropertyOptional({
    type: [VendorBillPaymentResponse],
    description: 'On single retrieval and actions, not on lists.',
  })
  payments?: VendorBillPaymentResponse[];
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

// Subledger reconciliation

export class SubledgerReportQuery {
  @ApiPropertyOptional({ enum: SUBLEDGERS, description: 'One subledger; absent: all three.' })
  @IsOptional()
  @IsIn(SUBLEDGERS)
  subledger?: (typeof SUBLEDGERS)[number];
  @ApiPropertyOptional({
    deprecated: true,
    description: 'Unsupported: 400 unsupported_param. The report is always as of the business day.',
  })
  @Allow()
  as_of_date?: unknown;
}

export class SubledgerLineResponse {
  @ApiProperty({ example: 1200 }) gl_balance: number;
  @ApiProperty({ example: 1200 }) subledger_balance: number;
  @ApiProperty({ example: 0, description: 'gl_balance - subledger_balance' }) variance: number;
}

export class SubledgerReconciliationResponse {
  @ApiProperty({ example: 'subledger_reconciliation' }) object: string;
  @ApiProperty({ example: '2026-11-21' }) as_of_date: string;
  @ApiProperty({ description: 'True when every reported variance is zero.' }) is_reconciled: boolean;
  @ApiPropertyOptional({ type: SubledgerLineResponse }) ar?: SubledgerLineResponse;
  @ApiPropertyOptional({ type: SubledgerLineResponse }) ap?: SubledgerLineResponse;
  @ApiPropertyOptional({ type: SubledgerLineResponse }) inventory?: SubledgerLineResponse;
}
