import { NestFactory } from '@nestjs/core';
import { AppModule } from '../apps/api/app.module';
import { AppConfig } from '#platform/config/app-config';
import { QaSeedDocument, QaSeedService } from '#platform/seed/qa-seed.service';

/** Boots the API's modules without HTTP and runs the QA seed with every context's contributors. */
export async function runSeed(config: AppConfig): Promise<QaSeedDocument> {
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config), { logger: false });
  try {
    await app.init();
    return await app.get(QaSeedService).run();
  } finally {
    await app.close();
  }
}
