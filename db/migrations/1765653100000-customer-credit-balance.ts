import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Customer credit as a balance: `accounts.credit_balance` (what the entity owes the customer as
 * credit, kept equal to the sum of the account's credit transactions), and `customer_credits`
 * becomes the account's signed ledger of credit movements (positive adds credit, negative spends
 * it) with its type, the invoice and payment it concerns, its currency and the balance after it.
 * Existing rows (all credits) are typed from their reference and get their running balance.
 */
export class CustomerCreditBalance1765653100000 implements MigrationInterface {
  name = 'CustomerCreditBalance1765653100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE accounts ADD COLUMN credit_balance numeric(19,4) NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE customer_credits DROP CONSTRAINT IF EXISTS customer_credits_amount_check`);
    await q.query(`
      ALTER TABLE customer_credits
        ADD CONSTRAINT customer_credits_amount_check CHECK (amount <> 0),
        ADD COLUMN type text,
        ADD COLUMN currency char(3),
        ADD COLUMN order_id uuid REFERENCES orders(id) ON DELETE SET NULL,
        ADD COLUMN payment_id uuid REFERENCES payments(id) ON DELETE SET NULL,
        ADD COLUMN ending_balance numeric(19,4)`);
    await q.query(`
      UPDATE customer_credits c
         SET type = CASE WHEN c.reference LIKE 'return %' THEN 'return_credit' ELSE 'deposit_remainder' END,
             currency = a.currency
        FROM accounts a WHERE a.id = c.account_id`);
    await q.query(`
      UPDATE customer_credits c SET ending_balance = r.running
        FROM (SELECT id, sum(amount) OVER (PARTITION BY entity_id, livemode, account_id ORDER BY id) AS running
                FROM customer_credits) r
       WHERE r.id = c.id`);
    await q.query(`
      ALTER TABLE customer_credits
        ALTER COLUMN type SET NOT NULL,
        ADD CONSTRAINT customer_credits_type_check
          CHECK (type IN ('return_credit', 'deposit_remainder', 'invoice_payment', 'payment_refund', 'account_merge')),
        ALTER COLUMN currency SET NOT NULL,
        ALTER COLUMN ending_balance SET NOT NULL`);
    await q.query(`
      UPDATE accounts a SET credit_balance = s.total
        FROM (SELECT account_id, sum(amount) AS total FROM customer_credits GROUP BY account_id) s
       WHERE s.account_id = a.id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM customer_credits WHERE amount < 0`);
    await q.query(`
      ALTER TABLE customer_credits
        DROP CONSTRAINT customer_credits_type_check,
        DROP CONSTRAINT customer_credits_amount_check,
        DROP COLUMN type, DROP COLUMN currency, DROP COLUMN order_id, DROP COLUMN payment_id,
        DROP COLUMN ending_balance`);
    await q.query(
      `ALTER TABLE customer_credits ADD CONSTRAINT customer_credits_amount_check CHECK (amount > 0)`,
    );
    await q.query(`ALTER TABLE accounts DROP COLUMN credit_balance`);
  }
}
