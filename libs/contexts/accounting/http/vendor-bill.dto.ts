import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  NullableField,
  NullableText,
  OptionalCurrency,
  OptionalEnum,
  OptionalField,
  OptionalUuid,
  RequiredMoney,
  RequiredText,
  RequiredUuid,
} from '#platform/http/dto-fields';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { ResourceResponse } from '#platform/http/response-schema';
import { IsCalendarDate } from './calendar-date.validator';
import { CrossFieldRules } from '#platform/http/cross-field-rules';

const POSITIVE = 0.0001;
const BILL_STATUSES = ['open', 'partially_paid', 'paid', 'voided'];

@CrossFieldRules({
  kind: 'compare',
  field: 'due_date',
  op: '>=',
  than: 'bill_date',
  param: 'due_date',
  sentence: 'due_date must not be before bill_date.',
})
export class CreateVendorBillDto {
  @RequiredText(200, { example: 'Acme Supplies' }) vendor_name: string;
  @NullableText(100, { example: 'INV-7781' }) bill_number?: string | null;
  @OptionalField({ example: '2026-11-20', description: 'Defaults to the business day.' }, IsCalendarDate())
  bill_date?: string;
  @NullableField({ example: '2026-12-20' }, IsCalendarDate()) due_date?: string | null;
  @OptionalCurrency({ example: 'USD' }) currency?: string;
  @RequiredMoney(POSITIVE, { example: 830.25 }) amount: number;
  @RequiredUuid({ description: 'The expense or inventory ledger account debited.' }) debit_account_id: string;
  @NullableText(1000) description?: string | null;
}

export class VendorBillPaymentDto {
  @RequiredMoney(POSITIVE, { example: 400 }) amount: number;
  @OptionalField(
    { example: '2026-11-21', description: 'Defaults to the business day; not before the bill date.' },
    IsCalendarDate(),
  )
  payment_date?: string;
  @OptionalUuid({ description: 'The bank account credited; defaults to the cash control account.' })
  bank_account_id?: string;
  @NullableText(200) reference?: string | null;
}

export class VendorBillListQuery extends ListQueryDto {
  @OptionalEnum(BILL_STATUSES) status?: string;
}

@ResourceResponse('vendor_bill_payment', { tail: ['created_at'] })
export class VendorBillPaymentResponse {
  @ApiProperty({ format: 'uuid' }) vendor_bill_id: string;
  @ApiProperty({ example: 400 }) amount: number;
  @ApiProperty({ example: '2026-11-21' }) payment_date: string;
  @ApiProperty({ format: 'uuid' }) bank_account_id: string;
  @ApiProperty({ nullable: true, type: String }) reference: string | null;
  @ApiProperty({ format: 'uuid' }) journal_entry_id: string;
}

@ResourceResponse('vendor_bill')
export class VendorBillResponse {
  @ApiProperty({ example: 'Acme Supplies' }) vendor_name: string;
  @ApiProperty({ nullable: true, type: String }) bill_number: string | null;
  @ApiProperty({ example: '2026-11-20' }) bill_date: string;
  @ApiProperty({ nullable: true, type: String }) due_date: string | null;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ example: 830.25 }) amount: number;
  @ApiProperty({ example: 400 }) amount_paid: number;
  @ApiProperty({ example: 430.25 }) amount_due: number;
  @ApiProperty({ enum: BILL_STATUSES }) status: string;
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
}
