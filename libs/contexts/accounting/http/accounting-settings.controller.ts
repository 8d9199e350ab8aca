import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RetrieveQueryDto } from '#platform/http/list/list-query.dto';
import { StandardRoutes } from '#platform/http/standard-routes';
import { AccountingSettingsService } from '../application/accounting-settings.service';
import { SettingsResponse, UpdateSettingsDto } from './accounting-settings.dto';

@ApiTags('Accounting')
@Controller('accounting/settings')
@StandardRoutes({
  service: AccountingSettingsService,
  scope: 'accounting',
  model: SettingsResponse,
  singleton: { query: RetrieveQueryDto },
  retrieve: [
    'Retrieve the accounting settings',
    { description: 'Time zone, current business day, approval threshold, entry-number prefix.' },
  ],
  update: [UpdateSettingsDto, 'Update the accounting settings'],
})
export class AccountingSettingsController {}
