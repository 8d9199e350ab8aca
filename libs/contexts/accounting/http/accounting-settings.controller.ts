import { Body, Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RetrieveQueryDto } from '#platform/http/list/list-query.dto';
import { Route } from '#platform/http/route';
import { AccountingSettingsService } from '../application/accounting-settings.service';
import { SettingsResponse, UpdateSettingsDto } from './accounting-settings.dto';

@ApiTags('Accounting')
@Controller('accounting/settings')
export class AccountingSettingsController {
  constructor(private readonly settings: AccountingSettingsService) {}

  @Route('GET', '', {
    scopes: 'accounting:read',
    summary: 'Retrieve the accounting settings',
    description: 'Time zone, current business day, approval threshold, entry-number prefix.',
    returns: SettingsResponse,
  })
  retrieve(@Query() _query: RetrieveQueryDto) {
    return this.settings.retrieve();
  }

  @Route('PATCH', '', {
    scopes: 'accounting:write',
    summary: 'Update the accounting settings',
    returns: SettingsResponse,
  })
  update(@Body() body: UpdateSettingsDto) {
    return this.settings.update(body);
  }
}
