import { MigrationInterface, QueryRunner } from 'typeorm';

/** Catalog: product categories, products, variants and channel listings. */
export class CatalogProducts1763800000000 implements MigrationInterface {
  name = 'CatalogProducts1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE product_categories (
        id uuid PRIMARY KEY,
        entity_id uuid NOT NULL,
        livemode boolean NOT NULL,
        name text NOT NULL,
        description text,
        parent_id uuid REFERENCES product_categories(id),
        metadata jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        version integer NOT NULL DEFAULT 1
      )`);
    await q.query(`CREATE INDEX product_categories_keyset ON product_categories (entity_id, livemode, id)`);
    await q.query(
      `CREATE INDEX product_categories_parent ON product_categories (entity_id, livemode, parent_id, id)`,
    );

    await q.query(`
      CREATE TABLE products (
        id uuid PRIMARY KEY,
        entity_id uuid NOT NULL,
        livemode boolean NOT NULL,
        sku text NOT NULL,
        name text NOT NULL,
        description text,
        type text NOT NULL CHECK (type IN ('standard', 'kit', 'service', 'box')),
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived')),
        unit_of_measure text NOT NULL,
        list_price numeric(19,4) NOT NULL CHECK (list_price >= 0),
        currency char(3) NOT NULL,
        cost_price numeric(19,4) CHECK (cost_price >= 0),
        weight numeric(19,4) CHECK (weight >= 0),
        weight_unit text,
        length numeric(19,4) CHECK (length >= 0),
        width numeric(19,4) CHECK (width >= 0),
        height numeric(19,4) CHECK (height >= 0),
        dimension_unit text,
        freight_insurance boolean NOT NULL DEFAULT false,
        serial_tracked boolean NOT NULL DEFAULT false,
        demand_avg_per_day numeric(19,4) NOT NULL DEFAULT 0,
        category_id uuid REFERENCES product_categories(id),
        metadata jsonb NOT NULL DEFAULT '{}',
        archived_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        version integer NOT NULL DEFAULT 1
      )`);
    await q.query(`CREATE UNIQUE INDEX products_sku ON products (entity_id, livemode, sku)`);
    await q.query(`CREATE INDEX products_keyset ON products (entity_id, livemode, id)`);
    await q.query(`CREATE INDEX products_category ON products (entity_id, livemode, category_id, id)`);
    await q.query(`CREATE INDEX products_status ON products (entity_id, livemode, status, id)`);
    await q.query(`CREATE INDEX products_type ON products (entity_id, livemode, type, id)`);

    await q.query(`
      CREATE TABLE product_variants (
        id uuid PRIMARY KEY,
        entity_id uuid NOT NULL,
        livemode boolean NOT NULL,
        product_id uuid NOT NULL REFERENCES products(id) ON DELETE CASCADE,
        sku text NOT NULL,
        name text NOT NULL,
        options jsonb NOT NULL DEFAULT '{}',
        list_price numeric(19,4) CHECK (list_price >= 0),
        cost_price numeric(19,4) CHECK (cost_price >= 0),
        weight numeric(19,4) CHECK (weight >= 0),
        weight_unit text,
        metadata jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        version integer NOT NULL DEFAULT 1
      )`);
    await q.query(`CREATE UNIQUE INDEX product_variants_sku ON product_variants (entity_id, livemode, sku)`);
    await q.query(`CREATE INDEX product_variants_keyset ON product_variants (entity_id, livemode, id)`);
    await q.query(
      `CREATE INDEX product_variants_product ON product_variants (entity_id, livemode, product_id, id)`,
    );

    await q.query(`
      CREATE TABLE channel_listings (
        id uuid PRIMARY KEY,
        entity_id uuid NOT NULL,
        livemode boolean NOT NULL,
        product_id uuid NOT NULL REFERENCES products(id),
        channel text NOT NULL CHECK (channel IN ('storefront', 'marketplace1', 'marketplace2')),
        remote_id text,
        price numeric(19,4) CHECK (price >= 0),
        currency char(3) NOT NULL,
        status text NOT NULL CHECK (status IN ('active', 'inactive')),
        sync_status text NOT NULL DEFAULT 'never_synced',
        sync_attempts integer NOT NULL DEFAULT 0,
        last_synced_at timestamptz,
        metadata jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        version integer NOT NULL DEFAULT 1
      )`);
    await q.query(
      `CREATE UNIQUE INDEX channel_listings_product_channel ON channel_listings (entity_id, livemode, product_id, channel)`,
    );
    await q.query(`CREATE INDEX channel_listings_keyset ON channel_listings (entity_id, livemode, id)`);
    await q.query(
      `CREATE INDEX channel_listings_channel ON channel_listings (entity_id, livemode, channel, id)`,
    );
    await q.query(`CREATE INDEX tag_assignments_tag ON tag_assignments (entity_id, livemode, tag_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS tag_assignments_tag`);
    for (const table of ['channel_listings', 'product_variants', 'products', 'product_categories']) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
