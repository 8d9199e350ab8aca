/** The DI token of a reference list's service, e.g. `payment_term`. */
export const referenceListToken = (object: string) => `sales:reference-list:${object}`;

/** Accounts check their payment_terms_id against this service. */
export const PAYMENT_TERMS_SERVICE = referenceListToken('payment_term');

/** The seed creates its location through this one. */
export const LOCATIONS_SERVICE = referenceListToken('location');
