import { Injectable, OnModuleInit } from '@nestjs/common';
import { ImportRegistry, outcomes, validateAs } from '#platform/imports/import-registry';
import { ProductsService } from '../application/products.service';
import { CreateProductDto } from './product.dto';

/**
 * Bulk import of products (`resource: "products"`, variants inline as in POST /products): each
 * record is validated with CreateProductDto and written through ProductsService: new records
 * with createMany (same rules, one product.created each), known ones with update, whose fields
 * are those of PATCH /products/{id} (`variants` of a known product are left as they are).
 */
@Injectable()
export class ProductsImporter implements OnModuleInit {
  constructor(
    private readonly registry: ImportRegistry,
    private readonly products: ProductsService,
  ) {}

  onModuleInit(): void {
    this.registry.register<CreateProductDto>({
      resource: 'products',
      validate: (record) => validateAs(CreateProductDto, record),
      upsert: (input, existingId) => {
        if (!existingId) return this.products.create(input);
        const { variants: _variants, ...changes } = input;
        return this.products.update(existingId, changes);
      },
      createMany: async (inputs) => outcomes(await this.products.createMany(inputs)),
    });
  }
}
