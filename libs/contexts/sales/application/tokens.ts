import { referenceListToken } from '#platform/reference-lists/reference-list.service';

/** Accounts check their payment_terms_id against this service. */
export const PAYMENT_TERMS_SERVICE = referenceListToken('payment_term');
