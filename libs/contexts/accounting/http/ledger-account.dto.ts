import { ApiProperty, PartialType } from '@nestjs/swagger';
import {
  BooleanFilter,
  NullableEnum,
  NullableText,
  NullableUuid,
  OptionalBoolean,
  OptionalEnum,
  RequiredEnum,
  RequiredText,
} from '#platform/http/dto-fields';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { ResourceResponse } from '#platform/http/response-schema';
import { CrossFieldRules } from '#platform/http/cross-field-rules';
import { ACCOUNT_TYPES, CONTROL_ROLES, NORMAL_BALANCES } from '../domain/ledger';

/** Only asset accounts can be bank accounts (checkBankFlag(); the stored type or flag on an update). */
const bankAccountsAreAssets = (stored: boolean) =>
  CrossFieldRules({
    kind: 'when',
    field: 'is_bank',
    is: [true],
    allowed: { type: ['asset'] },
    ...(stored ? { stored } : {}),
    param: 'is_bank',
    sentence: stored
      ? 'Only asset accounts can be bank accounts (is_bank: true needs type asset; the stored type counts when not sent).'
      : 'Only asset accounts can be bank accounts (is_bank: true needs type asset).',
  });

@bankAccountsAreAssets(false)
export class CreateLedgerAccountDto {
  @RequiredText(32, { example: '1000' }) code: string;
  @RequiredText(200, { example: 'Cash' }) name: string;
  @RequiredEnum(ACCOUNT_TYPES) type: (typeof ACCOUNT_TYPES)[number];
  @OptionalEnum(NORMAL_BALANCES, { description: 'Derived from type when absent.' })
  normal_balance?: (typeof NORMAL_BALANCES)[number];
  @OptionalBoolean({ default: true }) postable?: boolean;
  @NullableUuid() parent_id?: string | null;
  @NullableEnum(CONTROL_ROLES) control_role?: string | null;
  @NullableText(1000) description?: string | null;
  @OptionalBoolean({ default: true }) active?: boolean;
  @OptionalBoolean({
    default: false,
    description: 'A bank account: bank transactions may be imported into it (asset accounts only).',
  })
  is_bank?: boolean;
}

@bankAccountsAreAssets(true)
export class UpdateLedgerAccountDto extends PartialType(CreateLedgerAccountDto) {}

export class LedgerAccountListQuery extends ListQueryDto {
  @OptionalEnum(ACCOUNT_TYPES) type?: string;
  @OptionalEnum(CONTROL_ROLES) control_role?: string;
  @BooleanFilter() postable?: boolean;
}

@ResourceResponse('ledger_account')
export class LedgerAccountResponse {
  @ApiProperty({ example: '1000' }) code: string;
  @ApiProperty({ example: 'Cash' }) name: string;
  @ApiProperty({ enum: ACCOUNT_TYPES }) type: string;
  @ApiProperty({ enum: NORMAL_BALANCES }) normal_balance: string;
  @ApiProperty() postable: boolean;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) parent_id: string | null;
  @ApiProperty({ enum: CONTROL_ROLES, nullable: true, type: String }) control_role: string | null;
  @ApiProperty({ nullable: true, type: String }) description: string | null;
  @ApiProperty() active: boolean;
  @ApiProperty({ description: 'Bank transactions may be imported into it.' }) is_bank: boolean;
}
