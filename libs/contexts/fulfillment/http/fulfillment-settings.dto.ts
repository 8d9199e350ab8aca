import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { NullableMoney, OptionalField } from '#platform/http/dto-fields';

export class UpdateFulfillmentSettingsDto {
  @NullableMoney(0, {
    type: Number,
    description: 'Insure every package whose value reaches it (source entity_threshold); null unsets it.',
  })
  insurance_threshold?: number | null;

  @OptionalField(
    {
      example: 'QA1',
      description: 'Prefix of new package numbers (1-20 of A-Z, 0-9, -).',
    },
    Matches(/^[A-Z0-9-]{1,20}$/),
  )
  package_number_prefix?: string;
}

export class FulfillmentSettingsResponse {
  @ApiProperty({ example: 'fulfillment_settings' }) object: string;
  @ApiProperty({ nullable: true, type: Number }) insurance_threshold: number | null;
  @ApiProperty({ example: 'QA1' }) package_number_prefix: string;
  @ApiProperty({ type: 'integer' }) last_package_number: number;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}
