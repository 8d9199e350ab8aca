import { renderError } from './error-envelope';

describe('renderError', () => {
  it('answers a lost database connection with 503 service_unavailable and Retry-After', () => {
    const lost = Object.assign(new Error('Connection terminated unexpectedly'), { name: 'QueryFailedError' });
    const rendered = renderError(lost, 'req_1');
    expect(rendered.status).toBe(503);
    expect(rendered.body).toMatchObject({
      error: 'service_unavailable',
      code: 'service_unavailable',
      request_id: 'req_1',
    });
    expect(rendered.headers).toEqual({ 'Retry-After': '5' });
    expect(rendered.outage).toBe(true);
    expect(rendered.internal).toBe(lost);
  });

  it('keeps 500 internal_error for errors that are not outages', () => {
    const rendered = renderError(new TypeError('x is undefined'), 'req_2');
    expect(rendered.status).toBe(500);
    expect(rendered.body.code).toBe('internal_error');
    expect(rendered.headers).toBeUndefined();
    expect(rendered.outage).toBeUndefined();
  });
});
