import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDate,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
} from 'class-validator';
import { MaxChars } from '../http/text-length';
import { CrossFieldRules } from '../http/cross-field-rules';
import { IP_RANGE_PATTERN } from './ip-allowlist';

@CrossFieldRules(
  {
    kind: 'caller_mode',
    field: 'mode',
    param: 'mode',
    sentence:
      'mode, when sent, is the mode of the calling key: a live key manages live keys only, a test key test keys only.',
  },
  {
    kind: 'not_past',
    field: 'expires_at',
    unit: 'instant',
    param: 'expires_at',
    sentence: 'expires_at, when sent and not null, is an instant after the moment the request is received.',
  },
)
export class CreateApiKeyDto {
  @ApiProperty({ example: 'ERP sync' })
  @IsString()
  @IsNotEmpty()
  @MaxChars(200)
  name: string;

  @ApiPropertyOptional({
    enum: ['live', 'test'],
    description: 'Defaults to the mode of the calling key, and must equal it.',
  })
  @IsOptional()
  @IsIn(['live', 'test'])
  mode?: 'live' | 'test';

  @ApiProperty({ type: [String], example: ['orders:read', 'orders:write'] })
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  scopes: string[];

  @ApiPropertyOptional({
    type: [String],
    example: ['203.0.113.0/24', '2001:db8::/32'],
    description:
      'Addresses the key may be used from: each entry an IPv4 or IPv6 address, or a CIDR range (address/prefix, 0-32 for IPv4, 0-128 for IPv6). IPv6 is written in hex groups, `::` allowed; no zone and no embedded IPv4 tail.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @Matches(IP_RANGE_PATTERN, {
    each: true,
    message: 'each value in ip_allowlist must be an IPv4/IPv6 address or CIDR range (address/prefix)',
  })
  ip_allowlist?: string[];

  @ApiPropertyOptional({ minimum: 1, maximum: 100000, nullable: true })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100000)
  rate_limit_per_minute?: number | null;

  @ApiPropertyOptional({
    format: 'date-time',
    nullable: true,
    example: '2030-01-01T00:00:00.000Z',
    description: 'Must be in the future; null or absent: the key does not expire.',
  })
  @IsOptional()
  @Type(() => Date)
  @IsDate()
  expires_at?: Date | null;
}

export class ApiKeyResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'api_key' }) object: string;
  @ApiProperty({ format: 'uuid' }) entity_id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['live', 'test'] }) mode: string;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ enum: ['active', 'revoked', 'expired'] }) status: string;
  @ApiProperty({ type: [String] }) scopes: string[];
  @ApiProperty({ type: [String] }) ip_allowlist: string[];
  @ApiProperty({ nullable: true, type: Number }) rate_limit_per_minute: number | null;
  @ApiProperty({ example: 'key_live_ent_acme_...a1b2' }) redacted_key: string;
  @ApiProperty({ nullable: true, format: 'date-time', type: String }) expires_at: string | null;
  @ApiProperty({ nullable: true, format: 'date-time', type: String }) revoked_at: string | null;
  @ApiProperty({ nullable: true, format: 'uuid', type: String }) rotated_from_id: string | null;
  @ApiProperty({ nullable: true, format: 'uuid', type: String }) replaced_by_id: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
  @ApiPropertyOptional({ description: 'The plaintext key, present only in the create and rotate responses.' })
  secret?: string;
}
