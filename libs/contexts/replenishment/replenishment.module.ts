import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountingModule } from '../accounting/accounting.module';
import { CatalogModule } from '../catalog/catalog.module';
import { SalesModule } from '../sales/sales.module';
import { DemandRecorderService } from './application/demand-recorder.service';
import { DemandService } from './application/demand.service';
import { KitComponentsService } from './application/kit-components.service';
import { ProductVendorsService } from './application/product-vendors.service';
import { KitComponentsController } from './http/kit-components.controller';
import { ProductVendorsController } from './http/product-vendors.controller';
import { BuildRecord } from './infrastructure/build.entity';
import { BuildRepository } from './infrastructure/build.repository';
import { DemandAggregateRepository } from './infrastructure/demand-aggregate.repository';
import { LineShipmentRepository } from './infrastructure/line-shipment.repository';
import { KitComponentRecord } from './infrastructure/kit-component.entity';
import { KitComponentRepository } from './infrastructure/kit-component.repository';
import { ProductVendorRecord } from './infrastructure/product-vendor.entity';
import { ProductVendorRepository } from './infrastructure/product-vendor.repository';

const REPOSITORIES = [
  ProductVendorRepository,
  KitComponentRepository,
  BuildRepository,
  DemandAggregateRepository,
  LineShipmentRepository,
];
const SERVICES = [ProductVendorsService, KitComponentsService, DemandService, DemandRecorderService];

/** Replenishment core: product vendors, kit components, builds, demand aggregates and reorder planning. */
@Module({
  imports: [
    CatalogModule,
    SalesModule,
    AccountingModule,
    TypeOrmModule.forFeature([ProductVendorRecord, KitComponentRecord, BuildRecord]),
  ],
  providers: [...REPOSITORIES, ...SERVICES],
  exports: SERVICES,
})
export class ReplenishmentCoreModule {}

/** Replenishment's HTTP routes. */
@Module({
  imports: [ReplenishmentCoreModule],
  controllers: [ProductVendorsController, KitComponentsController],
  exports: [ReplenishmentCoreModule],
})
export class ReplenishmentModule {}
