import { RequestContext } from '../tenancy/request-context';
import { eventTypes, registerEventTypes } from './event-catalog';
import { API_VERSION, outboxInsertSql, outboxRow, outboxRowJson } from './outbox-writer';

describe('outbox writer', () => {
  registerEventTypes(['thing'], eventTypes({ 'thing.created': 'A thing was created.' }));
  const scope = { entityId: '0190e0a0-0000-7000-8000-000000000001', livemode: true };

  it("shapes the caller's row and refuses a type outside the catalog", () => {
    const row = RequestContext.runAsSystem(
      scope,
      () => outboxRow('thing.created', { id: 't1' }, { name: 'a' }),
      'req_1',
    );
    expect(row).toMatchObject({
      ...scope,
      type: 'thing.created',
      apiVersion: API_VERSION,
      data: { object: { id: 't1' }, previous_attributes: { name: 'a' } },
      requestId: 'req_1',
    });
    expect(RequestContext.runAsSystem(scope, () => outboxRow('thing.created', { id: 't1' })).data).toEqual({
      object: { id: 't1' },
    });
    expect(() => RequestContext.runAsSystem(scope, () => outboxRow('thing.exploded', {}))).toThrow(/catalog/);
  });

  it('serialises every column, dispatched_at null unless set', () => {
    const row = RequestContext.runAsSystem(scope, () => outboxRow('thing.created', { id: 't1' }));
    const json = outboxRowJson(row);
    expect(json).toEqual({
      id: row.id,
      entity_id: scope.entityId,
      livemode: true,
      type: 'thing.created',
      api_version: API_VERSION,
      data: { object: { id: 't1' } },
      request_id: 'job',
      created_at: row.createdAt.toISOString(),
      dispatched_at: null,
    });
    expect(outboxRowJson({ ...row, dispatchedAt: row.createdAt }).dispatched_at).toBe(json.created_at);
  });

  it('inserts every column from the JSON, with the data expression a writer may replace', () => {
    const sql = outboxInsertSql('n.event', 'n', "jsonb_set(n.event->'data', '{object,n}', '1')");
    expect(sql).toMatch(
      /^INSERT INTO outbox_events \(id, entity_id, livemode, type, api_version, data, request_id, created_at, dispatched_at\)/,
    );
    expect(sql).toContain("jsonb_set(n.event->'data', '{object,n}', '1')");
    expect(outboxInsertSql('r.event', 'x')).toContain(
      "r.event->>'api_version', r.event->'data', r.event->>'request_id'",
    );
    expect(sql.trim().endsWith('FROM n')).toBe(true);
  });
});
