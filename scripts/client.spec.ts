import { untypedPlaces } from './client';

describe('the client check for untyped places', () => {
  it('finds a response or a schema field typed unknown or never', () => {
    const types = [
      'export type TagResponse = {',
      '    id: string;',
      '    color?: unknown;',
      '};',
      'export type TagsRetrieveResponses = {',
      '    200: unknown;',
      '};',
      'export type OrderResponse = {',
      '    lines: never;',
      '};',
    ].join('\n');
    expect(untypedPlaces(types)).toEqual([
      'TagResponse.color (line 3): unknown',
      'TagsRetrieveResponses (line 6)',
      'OrderResponse.lines (line 9): never',
    ]);
  });

  it('accepts free-form maps and requests that take no body or query', () => {
    const types = [
      'export type AccountResponse = {',
      '    metadata: {',
      '        [key: string]: unknown;',
      '    };',
      '};',
      'export type TagsRetrieveData = {',
      '    body?: never;',
      '    query?: never;',
      '};',
      'export type TagsRetrieveResponses = {',
      '    200: TagResponse;',
      '};',
    ].join('\n');
    expect(untypedPlaces(types)).toEqual([]);
  });
});
