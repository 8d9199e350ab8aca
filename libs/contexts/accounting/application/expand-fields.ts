import { ExpandableField, references } from '#platform/http/expand/expand-registry';

/**
 * The expand[] fields of a document posted to the ledger: the ledger account it names in
 * `<accountField>_id`, and its journal entry (`journal_entry_id`).
 */
export const postedDocumentFields = (accountField: string): Record<string, ExpandableField> =>
  references({ [accountField]: 'ledger_account', journal_entry: 'journal_entry' });
