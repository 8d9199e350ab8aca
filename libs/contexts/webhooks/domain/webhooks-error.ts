import { DomainError } from '#platform/errors/domain-error';

/** Errors of the webhooks context; the platform's filter maps each code to its status and envelope. */
export class WebhooksError extends DomainError {}
