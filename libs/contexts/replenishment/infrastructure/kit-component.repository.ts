import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { notFound } from '#platform/errors/domain-error';
import { isUuid } from '#platform/persistence/ids';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { KitComponentRecord } from './kit-component.entity';

@Injectable()
export class KitComponentRepository extends TenantRepository.of(KitComponentRecord, 'kit component') {
  /** A page of the components of one kit. */
  listOfKit(kitProductId: string, query: ListQueryDto) {
    return this.page(query, { url: '' }, (qb) =>
      qb.andWhere('r.kit_product_id = :kitProductId', { kitProductId }),
    );
  }

  async getOfKit(kitProductId: string, id: string): Promise<KitComponentRecord> {
    if (!isUuid(id)) throw notFound('kit component', id);
    const found = await this.scopedQuery('r')
      .andWhere('r.id = :id AND r.kit_product_id = :kitProductId', { id, kitProductId })
      .getOne();
    if (!found) throw notFound('kit component', id);
    return found;
  }

  /** The components of several kits, oldest first. */
  async ofKits(kitProductIds: readonly string[]): Promise<KitComponentRecord[]> {
    if (kitProductIds.length === 0) return [];
    return this.scopedQuery('r')
      .andWhere('r.kit_product_id IN (:...ids)', { ids: [...new Set(kitProductIds)] })
      .orderBy('r.id', 'ASC')
      .getMany();
  }

  async findPair(kitProductId: string, componentProductId: string): Promise<KitComponentRecord | null> {
    return this.findOneWhere({ kitProductId, componentProductId });
  }

  /** Every kit -> component edge of the entity and mode (the graph the cycle check walks). */
  async edges(): Promise<{ kit: string; component: string }[]> {
    const { entityId, livemode } = this.scope();
    const rows: { kit: string; component: string }[] = await this.tx.manager.query(
      `SELECT kit_product_id AS kit, component_product_id AS component FROM kit_components
        WHERE entity_id = $1 AND livemode = $2`,
      [entityId, livemode],
    );
    return rows;
  }

  /** Serializes bill-of-materials edits of the entity and mode (cycle checks see a stable graph). */
  async lockGraph(): Promise<void> {
    const { entityId, livemode } = this.scope();
    await this.tx.transactional.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
      `kit_components:${entityId}:${livemode}`,
    ]);
  }
}
