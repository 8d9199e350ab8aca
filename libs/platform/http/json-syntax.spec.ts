import { describeJsonSyntaxProblem, jsonSyntaxProblem } from './json-syntax';

describe('jsonSyntaxProblem', () => {
  it.each([
    '{}',
    '[]',
    ' {"a": [1, -2.5e3, true, false, null, "x\\n\\u00e9"], "b": {"c": {}}} ',
    '"text"',
    '0',
    '[[[]],[{}]]',
  ])('finds nothing wrong in %s (JSON.parse agrees)', (text) => {
    expect(() => JSON.parse(text)).not.toThrow();
    expect(jsonSyntaxProblem(text)).toBeNull();
  });

  it.each([
    ['{"a":}', 5, '"}"'],
    ['{"a":1,}', 7, '"}"'],
    ['{"a" 1}', 5, '"1"'],
    ['{"a":1', 6, 'end of input'],
    ['a=1&b=2', 0, '"a"'],
    ['', 0, 'end of input'],
    ['[1 2]', 3, '"2"'],
    ['{"a":"x\ny"}', 7, '"\\n"'],
    ['{"a":"\\q"}', 7, '"q"'],
    ['{"a":1}}', 7, '"}"'],
    ["{'a':1}", 1, '"\'"'],
    ['[01]', 2, '"1"'],
  ])('%j breaks at %i (%s)', (text, position, found) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(jsonSyntaxProblem(text)).toMatchObject({ position, found });
  });

  it('counts lines and columns from 1', () => {
    const problem = jsonSyntaxProblem('{\n  "a": 1,\n  "b": }\n')!;
    expect(problem).toEqual({ position: 19, line: 3, column: 8, found: '"}"' });
    expect(describeJsonSyntaxProblem(problem)).toBe('unexpected "}" at line 3, column 8 (position 19)');
  });

  it('walks a deep nesting without recursion', () => {
    expect(jsonSyntaxProblem('['.repeat(100_000) + ']'.repeat(100_000))).toBeNull();
    expect(jsonSyntaxProblem('['.repeat(100_000))).toMatchObject({ found: 'end of input' });
  });
});
