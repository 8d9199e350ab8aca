import { ExpandableField } from '#platform/http/expand/expand-registry';

/**
 * The expand[] fields of a document posted to the ledger: the ledger account it names in
 * `<accountField>_id`, and its journal entry (`journal_entry_id`).
 */
export const postedDocumentFields = (accountField: string): Record<string, ExpandableField> => ({
  [accountField]: {
    kind: 'reference',
    source: `${accountField}_id`,
    target: accountField,
    resource: 'ledger_account',
  },
  journal_entry: {
    kind: 'reference',
    source: 'journal_entry_id',
    target: 'journal_entry',
    resource: 'journal_entry',
  },
});
