import { StatementNames } from './prepared-statements';

describe('prepared statement names', () => {
  it('names a text once it has run often enough, the same name every time after', () => {
    const names = new StatementNames(3, 10);
    const text = 'SELECT * FROM tags WHERE id = $1';
    expect(names.nameOf(text)).toBeUndefined();
    expect(names.nameOf(text)).toBeUndefined();
    const name = names.nameOf(text);
    expect(name).toMatch(/^s[A-Za-z0-9_-]{16}$/);
    expect(names.nameOf(text)).toBe(name);
    // A hash of the text: another instance (another process) gives the same name.
    const other = new StatementNames(1, 10);
    expect(other.nameOf(text)).toBe(name);
    expect(other.nameOf('SELECT 2 WHERE $1')).not.toBe(name);
  });

  it('names no more than its cap of texts', () => {
    const names = new StatementNames(1, 2);
    expect(names.nameOf('a $1')).toBeDefined();
    expect(names.nameOf('b $1')).toBeDefined();
    expect(names.nameOf('c $1')).toBeUndefined();
    expect(names.nameOf('a $1')).toBeDefined();
  });
});
