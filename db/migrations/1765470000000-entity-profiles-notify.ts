import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Entity profiles (code, base currency, time zone) are kept in each instance's memory. Any UPDATE
 * or DELETE of an entity row, whichever code or script runs it, sends `entity_profiles` with the
 * entity's id; PostgreSQL delivers it at commit and every instance forgets that profile. One
 * notification per statement and entity (statement triggers over the changed rows).
 */
export class EntityProfilesNotify1765470000000 implements MigrationInterface {
  name = 'EntityProfilesNotify1765470000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION entities_profile_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('entity_profiles', e::text) FROM (SELECT DISTINCT id AS e FROM changed) c;
        RETURN NULL;
      END $$`);
    for (const event of ['UPDATE', 'DELETE']) {
      await q.query(`
        CREATE TRIGGER entities_profile_${event.toLowerCase()} AFTER ${event} ON entities
        REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION entities_profile_changed()`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS entities_profile_update ON entities`);
    await q.query(`DROP TRIGGER IF EXISTS entities_profile_delete ON entities`);
    await q.query(`DROP FUNCTION IF EXISTS entities_profile_changed()`);
  }
}
