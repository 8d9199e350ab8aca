import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { OptionalEnum } from '#platform/http/dto-fields';
import { SUBLEDGERS } from '../application/subledger-reconciliation.service';

export class SubledgerReportQuery {
  @OptionalEnum(SUBLEDGERS, { description: 'One subledger; absent: all three.' })
  subledger?: (typeof SUBLEDGERS)[number];
  /**
   * A retired parameter, not described (a client built from the description never sends it):
   * allowed through the pipe (and the query check, `RetiredQuery` on the route) only so the service
   * answers 400 unsupported_param with why.
   */
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
