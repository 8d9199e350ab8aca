import { ResourceRegistry } from '#platform/http/expand/expand-registry';
import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { probeState, ProbeModule } from './probe.module';

describe('expand[]', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  const calls: Record<string, string[][]> = { tag: [], probe_node: [] };
  /** probe nodes: node_0 -> node_1 -> node_2 -> node_3 -> node_4, each with a tag. */
  const nodes = new Map<string, { id: string; object: string; next: string | null; tag: string }>();
  const tags: { id: string; name: string }[] = [];

  beforeAll(async () => {
    app = await startTestApp({}, { extraModules: [ProbeModule] });
    live = api(app, app.seed.entities.primary.keys.live);
    for (let i = 0; i < 5; i++)
      tags.push(
        (
          await live
            .post('/v1/tags')
            .send({ name: `expand ${i}` })
            .expect(201)
        ).body,
      );
    for (let i = 0; i < 5; i++)
      nodes.set(`node_${i}`, {
        id: `node_${i}`,
        object: 'probe_node',
        next: i < 4 ? `node_${i + 1}` : null,
        tag: tags[i].id,
      });
    probeState.tagIds = tags.map((t) => t.id);
    probeState.nodeId = 'node_0';

    const registry = app.get(ResourceRegistry);
    const tagDefinition = registry.get('tag')!;
    const loadTags = tagDefinition.load!;
    registry.register({
      ...tagDefinition,
      load: (ids) => {
        calls.tag.push(ids);
        return loadTags(ids);
      },
    });
    registry.register({
      name: 'probe_node',
      fields: {
        next: { kind: 'reference', source: 'next', target: 'next', resource: 'probe_node' },
        tag: { kind: 'reference', source: 'tag', target: 'tag', resource: 'tag' },
      },
      load: async (ids) => {
        calls.probe_node.push(ids);
        return new Map(ids.filter((id) => nodes.has(id)).map((id) => [id, { ...nodes.get(id)! }]));
      },
    });
    registry.register({
      name: 'probe_widget',
      fields: {
        tag: { kind: 'reference', source: 'tag', target: 'tag', resource: 'tag' },
        node: { kind: 'reference', source: 'node', target: 'node', resource: 'probe_node' },
      },
    });
  });
  afterAll(() => app.close());
  beforeEach(() => {
    calls.tag = [];
    calls.probe_node = [];
  });

  it('refuses paths on a resource with nothing expandable, naming the entry', async () => {
    const tag = tags[0];
    expectError(await live.get(`/v1/tags/${tag.id}?expand[]=foo`), 400, 'invalid_expand', {
      type: 'expand_error',
      param: 'expand[0]',
    });
    expectError(await live.get(`/v1/tags/${tag.id}?expand[]=data&expand[]=foo`), 400, 'invalid_expand', {
      param: 'expand[0]',
    });
    expectError(await live.get('/v1/tags?expand[]=foo'), 400, 'invalid_expand', {
      type: 'expand_error',
      param: 'expand[0]',
    });
    expectError(await live.get(`/v1/tags/${tag.id}?expand[]=`), 400, 'invalid_expand', {
      param: 'expand[0]',
    });
  });

  it('names the index of the first bad entry', async () => {
    const w = '/v1/probe/widgets/w1';
    expectError(await live.get(`${w}?expand[]=tag&expand[]=nope`), 400, 'invalid_expand', {
      type: 'expand_error',
      param: 'expand[1]',
    });
    expectError(
      await live.get(`${w}?expand[]=tag&expand[]=node&expand[]=node.bogus`),
      400,
      'invalid_expand',
      { param: 'expand[2]' },
    );
    expectError(await live.get(`${w}?expand[]=tag.next`), 400, 'invalid_expand', { param: 'expand[0]' });
    expect(calls.tag).toEqual([]);
  });

  it('refuses paths deeper than 4', async () => {
    await live.get('/v1/probe/widgets/w1?expand[]=node.next.next.tag').expect(200);
    expectError(
      await live.get('/v1/probe/widgets/w1?expand[]=node.next.next.next.tag'),
      400,
      'invalid_expand',
      {
        type: 'expand_error',
        param: 'expand[0]',
      },
    );
    expectError(
      await live.get('/v1/probe/widgets/w1?expand[]=tag&expand[]=node.next.next.next.next'),
      400,
      'invalid_expand',
      {
        param: 'expand[1]',
      },
    );
  });

  it('expands a single object', async () => {
    const res = await live.get('/v1/probe/widgets/w1?expand[]=tag').expect(200);
    expect(res.body.tag).toMatchObject({ id: tags[0].id, object: 'tag', name: 'expand 0' });
    expect(res.body.node).toBe('node_0');
    expect(calls.tag).toEqual([[tags[0].id]]);
  });

  it('loads each path segment once for a page of 100', async () => {
    const res = await live.get('/v1/probe/widgets?expand[]=data.tag').expect(200);
    expect(res.body.data).toHaveLength(100);
    res.body.data.forEach((w: { tag: { id: string; object: string } }, i: number) => {
      expect(w.tag).toMatchObject({ id: tags[i % 5].id, object: 'tag' });
    });
    expect(calls.tag).toHaveLength(1);
    expect([...calls.tag[0]].sort()).toEqual(tags.map((t) => t.id).sort());
    expect(calls.probe_node).toHaveLength(0);

    calls.tag = [];
    const both = await live.get('/v1/probe/widgets?expand[]=tag&expand[]=node').expect(200);
    expect(both.body.data.every((w: { node: { id: string } }) => w.node.id === 'node_0')).toBe(true);
    expect(calls.tag).toHaveLength(1);
    expect(calls.probe_node).toEqual([['node_0']]);
  });

  it('expands nested paths of depth 2 to 4 with one load per segment', async () => {
    const two = await live.get('/v1/probe/widgets?expand[]=node.tag').expect(200);
    for (const w of two.body.data)
      expect(w.node).toMatchObject({ id: 'node_0', tag: { id: tags[0].id, object: 'tag' } });
    expect(calls.probe_node).toHaveLength(1);
    expect(calls.tag).toHaveLength(1);

    calls.tag = [];
    calls.probe_node = [];
    const four = await live.get('/v1/probe/widgets?expand[]=node.next.next.tag&expand[]=tag').expect(200);
    expect(four.body.data).toHaveLength(100);
    for (const w of four.body.data) {
      expect(w.node.id).toBe('node_0');
      expect(w.node.next.id).toBe('node_1');
      expect(w.node.next.next.id).toBe('node_2');
      expect(w.node.next.next.tag).toMatchObject({ id: tags[2].id, name: 'expand 2' });
      expect(w.node.next.next.next).toBe('node_3');
      expect(w.node.tag).toBe(tags[0].id);
      expect(typeof w.tag).toBe('object');
    }
    // node, node.next, node.next.next: one load each; tags: one for `tag`, one for `node.next.next.tag`.
    expect(calls.probe_node).toEqual([['node_0'], ['node_1'], ['node_2']]);
    expect(calls.tag).toHaveLength(2);
  });

  it('leaves an id that no longer resolves as the id', async () => {
    const gone = (await live.post('/v1/tags').send({ name: 'expand gone' }).expect(201)).body;
    await live.delete(`/v1/tags/${gone.id}`).expect(200);
    probeState.tagIds = [gone.id];
    try {
      const res = await live.get('/v1/probe/widgets/w1?expand[]=tag').expect(200);
      expect(res.body.tag).toBe(gone.id);
    } finally {
      probeState.tagIds = tags.map((t) => t.id);
    }
  });
});
