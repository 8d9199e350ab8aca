import { writeFileSync } from 'node:fs';
import path from 'node:path';
import '#contexts/vocabulary';
import { EVENT_CATALOG, EVENT_FAMILIES } from '#platform/events/event-catalog';

/** docs/reference/event-types.md: every event type by family, in catalog order. */
export function renderEventTypesDoc(): string {
  const sections = EVENT_FAMILIES.flatMap((family) => {
    const types = EVENT_CATALOG.filter((e) => e.family === family);
    return [
      `## \`${family}\` (${types.length})`,
      '',
      '| Type | When |',
      '| --- | --- |',
      ...types.map((e) => `| \`${e.type}\` | ${e.description.replace(/\|/g, '\\|')} |`),
      '',
    ];
  });
  return [
    '# Event types',
    '',
    'Generated from the event catalog of the contexts (`libs/contexts/*/*.events.ts`) by',
    '`npm run docs:reference`; a unit test fails when this file is stale. The same catalog is',
    'served by `GET /v1/entities/{entity_id}/event_types`. The event object, subscriptions and',
    'deliveries are described in [events.md](events.md).',
    '',
    `${EVENT_CATALOG.length} types in ${EVENT_FAMILIES.length} families: ${EVENT_FAMILIES.map((f) => `\`${f}\``).join(', ')}.`,
    'Subscribe to one family with `<family>.*`, to all with `*`.',
    '',
    ...sections,
  ].join('\n');
}

/** `npm run docs:reference`: regenerates the generated pages of docs/reference. */
if (require.main === module) {
  writeFileSync(path.resolve(__dirname, '../../docs/reference/event-types.md'), renderEventTypesDoc());
}
