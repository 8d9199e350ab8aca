import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Quoted shipping rates are no longer stored: a rate_object_id carries its signed rate, so
 * `GET /packages/{id}/rates` writes nothing. The table of quotes goes.
 */
export class StatelessShippingRates1765670000000 implements MigrationInterface {
  name = 'StatelessShippingRates1765670000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS shipping_rates`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE shipping_rates (
        id uuid PRIMARY KEY,
        entity_id uuid NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
        livemode boolean NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        version integer NOT NULL DEFAULT 1,
        rate_object_id text NOT NULL,
        order_id uuid NOT NULL,
        package_id uuid NOT NULL,
        provider text NOT NULL,
        provider_shipment_id text,
        provider_rate_id text,
        carrier text NOT NULL,
        service_level text NOT NULL,
        amount numeric(19,4) NOT NULL,
        currency char(3) NOT NULL,
        estimated_days integer,
        insurance_fee numeric(19,4) NOT NULL,
        insured_amount numeric(19,4),
        expires_at timestamptz NOT NULL,
        UNIQUE (entity_id, livemode, rate_object_id)
      )`);
  }
}
