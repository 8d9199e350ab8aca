import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { MaxChars } from '../http/text-length';
import { IsDateTime } from '../http/dto-fields';
import { IsId } from '../http/id.validator';
import { ListQueryDto } from '../http/list/list-query.dto';

export class ActivityQueryDto extends ListQueryDto {
  @ApiPropertyOptional({
    example: 'tags',
    description: 'The collection acted on: tags, api_keys, imports, cutover, ...',
  })
  @IsOptional()
  @IsString()
  @MaxChars(100)
  resource_type?: string;

  @ApiPropertyOptional({ example: '01968c1e-5b7a-7cc3-9d2a-3f1e2b4c5d6e' })
  @IsOptional()
  @IsString()
  @MaxChars(255)
  resource_id?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsId()
  api_key_id?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Only entries created after this instant (exclusive).',
  })
  @IsOptional()
  @IsDateTime()
  created_after?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Only entries created before this instant (exclusive).',
  })
  @IsOptional()
  @IsDateTime()
  created_before?: string;
}

export class ActivityResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'activity' }) object: string;
  @ApiProperty({ format: 'uuid' }) api_key_id: string;
  @ApiProperty({ enum: ['live', 'test'], example: 'live' }) mode: string;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ example: 'PATCH' }) method: string;
  @ApiProperty({ example: '/v1/tags/01968c1e-5b7a-7cc3-9d2a-3f1e2b4c5d6e' }) path: string;
  @ApiProperty({ nullable: true, type: String, example: 'tags' }) resource_type: string | null;
  @ApiProperty({ nullable: true, type: String, example: '01968c1e-5b7a-7cc3-9d2a-3f1e2b4c5d6e' })
  resource_id: string | null;
  @ApiProperty({ example: 200 }) status: number;
  @ApiProperty({ nullable: true, type: String, example: 'req_3b1c9f0e2d4a6b8c7e5f1a2b' }) request_id:
    string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}
