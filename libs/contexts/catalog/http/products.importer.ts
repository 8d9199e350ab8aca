import { Injectable } from '@nestjs/common';
import { BodyImporter, outcomes } from '#platform/imports/import-registry';
import { ProductsService } from '../application/products.service';
import { CreateProductDto } from './product.dto';

/**
 * Bulk import of products (`resource: "products"`, variants inline as in POST /products): each
 * record is validated with CreateProductDto and written through ProductsService: new records
 * with createMany (same rules, one product.created each), known ones with update, whose fields
 * are those of PATCH /products/{id} (`variants` of a known product are left as they are).
 */
@Injectable()
export class ProductsImporter extends BodyImporter<CreateProductDto> {
  constructor(private readonly products: ProductsService) {
    super('products', CreateProductDto);
  }

  upsert(input: CreateProductDto, existingId: string | null) {
    if (!existingId) return this.products.create(input);
    const { variants: _variants, ...changes } = input;
    return this.products.update(existingId, changes);
  }

  async createMany(inputs: CreateProductDto[]) {
    return outcomes(await this.products.createMany(inputs));
  }
}
