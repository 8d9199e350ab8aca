import { transition, Transitions } from '#platform/domain/state-machine';
import { AUTO_DISABLE_THRESHOLD } from './retry-schedule';
import { WebhooksError } from './webhooks-error';

export type EndpointStatusValue = 'active' | 'disabled';

/** What a webhook endpoint's status rules look at. */
export interface EndpointState {
  status: EndpointStatusValue;
  disabledReason: string | null;
  consecutiveFailures: number;
}

export type EndpointAction = 'activate' | 'disable' | 'deliver';

/**
 * The endpoint's state machine: its owner sets the status (PATCH `status`: activate, disable) from
 * either status; test events, resends and recoveries (deliver) need an active endpoint. (The
 * dispatcher disables an endpoint after consecutive failures: `consecutive_failures`.)
 */
const TRANSITIONS: Transitions<EndpointStatusValue, EndpointAction> = {
  active: { activate: 'active', disable: 'disabled', deliver: 'active' },
  disabled: { activate: 'active', disable: 'disabled' },
};

/** The status `action` leads the endpoint to; 409 invalid_state naming the current status when not allowed. */
export function endpointTransition(action: EndpointAction, status: string): EndpointStatusValue {
  return transition(
    TRANSITIONS,
    status,
    action,
    (current) =>
      new WebhooksError('invalid_state', {
        hint: `The endpoint is ${current}; set status to active first.`,
      }),
  );
}

/**
 * A status asked for by the endpoint's owner (PATCH `status`):
 * - to `active` from `disabled`: reactivated, the reason cleared and the failure count reset;
 * - to `disabled` from `active`: disabled by hand (`disabled_reason: manual`), its pending
 *   deliveries to be cancelled;
 * - `active` again on an active endpoint resets its failure count; anything else changes nothing.
 */
export function requestEndpointStatus(
  from: EndpointState,
  wanted: EndpointStatusValue | undefined,
): { state: EndpointState; reactivated: boolean; disabled: boolean } {
  if (wanted === undefined) return { state: { ...from }, reactivated: false, disabled: false };
  const next = endpointTransition(wanted === 'active' ? 'activate' : 'disable', from.status);
  if (next === 'active') {
    return {
      state: { status: 'active', disabledReason: null, consecutiveFailures: 0 },
      reactivated: from.status !== 'active',
      disabled: false,
    };
  }
  if (from.status === next) return { state: { ...from }, reactivated: false, disabled: false };
  return {
    state: { status: next, disabledReason: 'manual', consecutiveFailures: from.consecutiveFailures },
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
  endpointTransition('deliver', status);
}
