import { Module } from '@nestjs/common';
import { CutoverController } from './http/cutover.controller';
import { ImportsController } from './http/imports.controller';
import { MigrationCoreModule } from './migration-core.module';

/** Migration's routes: the cutover freeze and bulk imports. */
@Module({
  imports: [MigrationCoreModule],
  controllers: [CutoverController, ImportsController],
})
export class MigrationHttpModule {}
