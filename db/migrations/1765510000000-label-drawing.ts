import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `package_labels.drawing`: what a label drawn by the API shows (carrier, service, tracking
 * number, weight, ship-to), kept instead of its file. The file is drawn from it with the
 * package's number when it is served, so a label bought with a new package needs nothing that
 * the package takes only at commit. A label from a provider keeps its file in `content`; every
 * label has one of the two.
 */
export class LabelDrawing1765510000000 implements MigrationInterface {
  name = 'LabelDrawing1765510000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE package_labels
        ALTER COLUMN content DROP NOT NULL,
        ADD COLUMN drawing jsonb,
        ADD CONSTRAINT package_labels_file_or_drawing CHECK (content IS NOT NULL OR drawing IS NOT NULL)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM package_labels WHERE content IS NULL`);
    await q.query(`
      ALTER TABLE package_labels
        DROP CONSTRAINT package_labels_file_or_drawing,
        DROP COLUMN drawing,
        ALTER COLUMN content SET NOT NULL`);
  }
}
