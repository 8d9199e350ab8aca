import { AUTO_DISABLE_THRESHOLD } from './retry-schedule';
import { WebhooksError } from './webhooks-error';

export type EndpointStatusValue = 'active' | 'disabled';

/** What a webhook endpoint's status rules look at. */
export interface EndpointState {
  status: EndpointStatusValue;
  disabledReason: string | null;
  consecutiveFailures: number;
}

/**
 * The endpoint's state machine for a status asked for by its owner (PATCH `status`):
 * - to `active` from `disabled`: reactivated, the reason cleared and the failure count reset;
 * - to `disabled` from `active`: disabled by hand (`disabled_reason: manual`), its pending
 *   deliveries to be cancelled;
 * - `active` again on an active endpoint resets its failure count; anything else changes nothing.
 * (The dispatcher disables an endpoint after consecutive failures: `consecutive_failures`.)
 */
export function requestEndpointStatus(
  from: EndpointState,
  wanted: EndpointStatusValue | undefined,
): { state: EndpointState; reactivated: boolean; disabled: boolean } {
  if (wanted === undefined) return { state: { ...from }, reactivated: false, disabled: false };
  if (wanted === 'active') {
    return {
      state: { status: 'active', disabledReason: null, consecutiveFailures: 0 },
      reactivated: from.status !== 'active',
      disabled: false,
    };
  }
  if (from.status === 'disabled') return { state: { ...from }, reactivated: false, disabled: false };
  return {
    state: { status: 'disabled', disabledReason: 'manual', consecutiveFailures: from.consecutiveFailures },
    reactivated: false,
    disabled: true,
  };
}

/**
 * The endpoint's state machine after a delivery to it failed permanently, with that failure
 * already counted in `consecutiveFailures`: an active endpoint reaching AUTO_DISABLE_THRESHOLD
 * consecutive permanent failures is disabled by the dispatcher (`disabled_reason:
 * consecutive_failures`), its pending deliveries to be cancelled; anything else changes nothing.
 */
export function afterPermanentFailure(from: EndpointState): { state: EndpointState; disabled: boolean } {
  if (from.status !== 'active' || from.consecutiveFailures < AUTO_DISABLE_THRESHOLD)
    return { state: { ...from }, disabled: false };
  return {
    state: {
      status: 'disabled',
      disabledReason: 'consecutive_failures',
      consecutiveFailures: from.consecutiveFailures,
    },
    disabled: true,
  };
}

/** Test events, resends and recoveries need an active endpoint: 409 invalid_state otherwise. */
export function assertEndpointActive(status: string): void {
  if (status !== 'active') {
    throw new WebhooksError('invalid_state', {
      hint: `The endpoint is ${status}; set status to active first.`,
    });
  }
}
