import {
  afterPermanentFailure,
  assertEndpointActive,
  endpointTransition,
  EndpointState,
  requestEndpointStatus,
} from './endpoint';
import { AUTO_DISABLE_THRESHOLD } from './retry-schedule';

const active: EndpointState = { status: 'active', disabledReason: null, consecutiveFailures: 3 };
const autoDisabled: EndpointState = {
  status: 'disabled',
  disabledReason: 'consecutive_failures',
  consecutiveFailures: 10,
};

describe('the webhook endpoint state machine', () => {
  it('reactivates a disabled endpoint: reason cleared, failures reset', () => {
    expect(requestEndpointStatus(autoDisabled, 'active')).toEqual({
      state: { status: 'active', disabledReason: null, consecutiveFailures: 0 },
      reactivated: true,
      disabled: false,
    });
  });

  it('disables an active endpoint by hand, its pending deliveries to be cancelled', () => {
    expect(requestEndpointStatus(active, 'disabled')).toEqual({
      state: { status: 'disabled', disabledReason: 'manual', consecutiveFailures: 3 },
      reactivated: false,
      disabled: true,
    });
  });

  it('resets the failure count when an active endpoint is set active, and changes nothing otherwise', () => {
    expect(requestEndpointStatus(active, 'active')).toMatchObject({
      state: { status: 'active', consecutiveFailures: 0 },
      reactivated: false,
    });
    expect(requestEndpointStatus(autoDisabled, 'disabled')).toEqual({
      state: autoDisabled,
      reactivated: false,
      disabled: false,
    });
    expect(requestEndpointStatus(active, undefined).state).toEqual(active);
  });

  it('disables an active endpoint once its consecutive permanent failures reach the threshold', () => {
    const failing = { ...active, consecutiveFailures: AUTO_DISABLE_THRESHOLD };
    expect(afterPermanentFailure(failing)).toEqual({
      state: {
        status: 'disabled',
        disabledReason: 'consecutive_failures',
        consecutiveFailures: AUTO_DISABLE_THRESHOLD,
      },
      disabled: true,
    });
    const below = { ...active, consecutiveFailures: AUTO_DISABLE_THRESHOLD - 1 };
    expect(afterPermanentFailure(below)).toEqual({ state: below, disabled: false });
    const manual: EndpointState = { status: 'disabled', disabledReason: 'manual', consecutiveFailures: 12 };
    expect(afterPermanentFailure(manual)).toEqual({ state: manual, disabled: false });
  });

  it('needs an active endpoint for test events, resends and recoveries', () => {
    expect(() => assertEndpointActive('active')).not.toThrow();
    expect(() => assertEndpointActive('disabled')).toThrow(
      expect.objectContaining({ code: 'invalid_state' }),
    );
  });
});

describe('the webhook endpoint transitions', () => {
  it.each([
    ['active', 'activate', 'active'],
    ['active', 'disable', 'disabled'],
    ['active', 'deliver', 'active'],
    ['disabled', 'activate', 'active'],
    ['disabled', 'disable', 'disabled'],
  ] as const)('%s --%s--> %s', (from, action, to) => {
    expect(endpointTransition(action, from)).toBe(to);
  });

  it('refuses deliveries to a disabled endpoint naming its status', () => {
    expect(() => endpointTransition('deliver', 'disabled')).toThrow(
      expect.objectContaining({
        code: 'invalid_state',
        hint: 'The endpoint is disabled; set status to active first.',
      }),
    );
  });
});
