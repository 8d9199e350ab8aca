import { readFileSync } from 'node:fs';
import path from 'node:path';
import { EVENT_CATALOG } from '#platform/events/event-catalog';
import { renderEventTypesDoc } from './reference-docs';

describe('docs/reference/event-types.md', () => {
  it('is current (regenerate with npm run docs:reference) and lists every event type', () => {
    const file = readFileSync(path.join(__dirname, '../docs/reference/event-types.md'), 'utf8');
    expect(file).toBe(renderEventTypesDoc());
    expect(EVENT_CATALOG).toHaveLength(118);
    for (const { type } of EVENT_CATALOG) expect(file).toContain(`| \`${type}\` |`);
  });
});
