import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { NullableText, NullableUuid, OptionalEnum, RequiredUuid } from '#platform/http/dto-fields';

export class CreateBuildDto {
  @RequiredUuid({ description: 'A product of type kit with components.' }) kit_product_id: string;

  @ApiProperty({ minimum: 1, maximum: 1_000_000, description: 'Kits to build.' })
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  quantity: number;

  @RequiredUuid({ description: 'Where the components are drawn and the kits added.' }) location_id: string;

  @OptionalEnum(['draft', 'posted'], { default: 'posted' }) status?: 'draft' | 'posted';

  @NullableUuid({
    description:
      'The sales order line of the kit this build assembles to order: its shipment then counts as component demand only.',
  })
  order_line_id?: string | null;

  @NullableText(1000, { maxLength: 1000 }) notes?: string | null;
}

class BuildComponentResponse {
  @ApiProperty({ format: 'uuid' }) product_id: string;
  @ApiProperty() quantity_per_kit: number;
  @ApiProperty() quantity: number;
  @ApiProperty({ nullable: true, type: Number }) unit_cost: number | null;
  @ApiProperty({ nullable: true, type: Number }) value: number | null;
}

export class BuildResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'build' }) object: string;
  @ApiProperty({ format: 'uuid' }) kit_product_id: string;
  @ApiProperty({ format: 'uuid' }) location_id: string;
  @ApiProperty() quantity: number;
  @ApiProperty({ enum: ['draft', 'posted', 'voided'] }) status: string;
  @ApiProperty({ type: [BuildComponentResponse] }) components: BuildComponentResponse[];
  @ApiProperty({ nullable: true, type: Number }) unit_cost: number | null;
  @ApiProperty({ nullable: true, type: Number }) total_cost: number | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) order_line_id: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) journal_entry_id: string | null;
  @ApiProperty({ nullable: true, type: String }) notes: string | null;
  @ApiProperty({ nullable: true, type: String }) posted_at: string | null;
  @ApiProperty({ nullable: true, type: String }) voided_at: string | null;
  @ApiProperty() livemode: boolean;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
}
