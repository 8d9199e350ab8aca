import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountingCoreModule } from '#contexts/accounting';
import { CatalogCoreModule } from '#contexts/catalog';
import { InventoryCoreModule } from '#contexts/inventory';
import { SalesCoreModule } from '#contexts/sales';
import { DemandRecorderService } from './application/demand-recorder.service';
import { BALANCE_SOURCE } from './application/balance-source.port';
import { BuildsService } from './application/builds.service';
import { KitComponentsService } from './application/kit-components.service';
import { DemandRefreshModule } from './demand-refresh.module';
import { ReorderPlanningService } from './application/reorder-planning.service';
import { ReorderReportService } from './application/reorder-report.service';
import { ReplenishmentRegistrar } from './application/replenishment.registrar';
import { ReplenishmentSeedContributor } from './application/replenishment-seed.contributor';
import { InventoryBalanceSource } from './infrastructure/inventory-balance.source';
import { ProductVendorsService } from './application/product-vendors.service';
import { BuildRecord } from './infrastructure/build.entity';
import { BuildRepository } from './infrastructure/build.repository';
import { KitComponentRecord } from './infrastructure/kit-component.entity';
import { KitComponentRepository } from './infrastructure/kit-component.repository';
import { ProductVendorRecord } from './infrastructure/product-vendor.entity';
import { ProductVendorRepository } from './infrastructure/product-vendor.repository';

const REPOSITORIES = [ProductVendorRepository, KitComponentRepository, BuildRepository];
const SERVICES = [
  ProductVendorsService,
  KitComponentsService,
  DemandRecorderService,
  BuildsService,
  ReorderReportService,
  ReorderPlanningService,
];

/** Replenishment core: product vendors, kit components, builds, demand aggregates and reorder planning. */
@Module({
  imports: [
    CatalogCoreModule,
    SalesCoreModule,
    AccountingCoreModule,
    InventoryCoreModule,
    DemandRefreshModule,
    TypeOrmModule.forFeature([ProductVendorRecord, KitComponentRecord, BuildRecord]),
  ],
  providers: [
    ...REPOSITORIES,
    ...SERVICES,
    ReplenishmentRegistrar,
    ReplenishmentSeedContributor,
    { provide: BALANCE_SOURCE, useClass: InventoryBalanceSource },
  ],
  // DemandService and DemandAverageRefresher are DemandRefreshModule's, exported with it.
  exports: [...SERVICES, DemandRefreshModule],
})
export class ReplenishmentCoreModule {}
