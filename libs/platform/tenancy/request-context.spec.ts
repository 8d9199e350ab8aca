import { MissingContextError, RequestContext, SYSTEM_KEY_ID } from './request-context';

describe('RequestContext.runAsSystem', () => {
  it('runs as the entity and mode given, with no key and no scopes unless named', () => {
    const seen = RequestContext.runAsSystem({ entityId: 'e1', livemode: false }, () => ({
      caller: RequestContext.caller(),
      requestId: RequestContext.requestId(),
    }));
    expect(seen.requestId).toBe('job');
    expect(seen.caller).toEqual({
      entityId: 'e1',
      entityCode: '',
      livemode: false,
      apiKeyId: SYSTEM_KEY_ID,
      scopes: new Set(),
    });
  });

  it('keeps the key, code, scopes and request id it is given, and only inside fn', () => {
    const caller = RequestContext.runAsSystem(
      { entityId: 'e2', entityCode: 'acme', livemode: true, apiKeyId: 'k1', scopes: ['orders:write'] },
      () => RequestContext.caller(),
      'import_1',
    );
    expect(caller).toMatchObject({ entityCode: 'acme', livemode: true, apiKeyId: 'k1' });
    expect([...caller.scopes]).toEqual(['orders:write']);
    expect(() => RequestContext.caller()).toThrow(MissingContextError);
  });
});
