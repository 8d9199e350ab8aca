import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Journal entries posted by other contexts inside their own transactions (stock movements,
 * fulfillment, payments, ...) are numbered at commit: they are inserted with the placeholder
 * `pending-<id>` and a deferred constraint trigger takes the number from the entity's counter row
 * inside COMMIT, so that row is locked only while PostgreSQL commits, not through the statements
 * the caller runs after posting. A second deferred trigger puts the number into the entry's
 * outbox event, so subscribers never see the placeholder. Entries written with their number (the
 * journal-entry routes, the batched writer) do not match the triggers' conditions.
 */
export class PostingNumbersAtCommit1765420000000 implements MigrationInterface {
  name = 'PostingNumbersAtCommit1765420000000';

  async up(q: QueryRunner): Promise<void> {
    // Idempotent: numbers the entry while it holds its placeholder and returns its number; NULL when
    // the entry no longer exists.
    await q.query(`
      CREATE FUNCTION number_pending_journal_entry(entry uuid) RETURNS text LANGUAGE plpgsql AS $$
      DECLARE
        e_entity uuid;
        e_livemode boolean;
        e_number text;
        n bigint;
        prefix text;
      BEGIN
        SELECT entity_id, livemode, entry_number INTO e_entity, e_livemode, e_number FROM journal_entries WHERE id = entry;
        IF NOT FOUND THEN RETURN NULL; END IF;
        IF e_number NOT LIKE 'pending-%' THEN RETURN e_number; END IF;
        UPDATE accounting_settings SET last_entry_number = last_entry_number + 1
          WHERE entity_id = e_entity AND livemode = e_livemode
          RETURNING last_entry_number, entry_number_prefix INTO n, prefix;
        IF NOT FOUND THEN
          RAISE EXCEPTION 'no accounting_settings row for entity % (livemode %) to number journal entry %', e_entity, e_livemode, entry;
        END IF;
        e_number := journal_entry_number_text(prefix, n);
        UPDATE journal_entries SET entry_number = e_number WHERE id = entry;
        RETURN e_number;
      END $$`);
    await q.query(`
      CREATE FUNCTION journal_entries_pending_number() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM number_pending_journal_entry(NEW.id);
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE CONSTRAINT TRIGGER journal_entries_pending_number AFTER INSERT ON journal_entries
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.entry_number LIKE 'pending-%')
      EXECUTE FUNCTION journal_entries_pending_number()`);
    await q.query(`
      CREATE FUNCTION outbox_events_pending_entry_number() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        e_number text;
      BEGIN
        e_number := number_pending_journal_entry((NEW.data->'object'->>'id')::uuid);
        IF e_number IS NOT NULL THEN
          UPDATE outbox_events SET data = jsonb_set(data, '{object,entry_number}', to_jsonb(e_number)) WHERE id = NEW.id;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE CONSTRAINT TRIGGER outbox_events_pending_entry_number AFTER INSERT ON outbox_events
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
      WHEN (NEW.data->'object'->>'object' = 'journal_entry' AND NEW.data->'object'->>'entry_number' LIKE 'pending-%')
      EXECUTE FUNCTION outbox_events_pending_entry_number()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS outbox_events_pending_entry_number ON outbox_events`);
    await q.query(`DROP FUNCTION IF EXISTS outbox_events_pending_entry_number()`);
    await q.query(`DROP TRIGGER IF EXISTS journal_entries_pending_number ON journal_entries`);
    await q.query(`DROP FUNCTION IF EXISTS journal_entries_pending_number()`);
    await q.query(`DROP FUNCTION IF EXISTS number_pending_journal_entry(uuid)`);
  }
}
