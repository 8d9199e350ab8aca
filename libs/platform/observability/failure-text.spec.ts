import { failureText } from './failure-text';

describe('failureText', () => {
  it('is the message of an error', () => {
    expect(failureText(new Error('The database has no tables yet.'))).toBe('The database has no tables yet.');
  });

  it('never prints undefined or nothing for a rejection without a reason', () => {
    for (const reason of [undefined, null, '']) {
      const text = failureText(reason);
      expect(text).toMatch(/^failed without a reason/);
      expect(text).not.toContain('undefined');
    }
  });

  it('falls back to the stack of an error without a message, and shows other values', () => {
    const bare = new Error('');
    expect(failureText(bare)).toBe(bare.stack);
    expect(failureText('refused')).toBe('refused');
    expect(failureText({ code: 'E1' })).toBe('{"code":"E1"}');
  });
});
