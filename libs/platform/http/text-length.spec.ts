import 'reflect-metadata';
// The library's own rule, for the contrast only.
// eslint-disable-next-line no-restricted-imports
import { getMetadataStorage, IsOptional, MaxLength, validateSync } from 'class-validator';
import { plainToInstance } from 'class-transformer';
import { codePointLength } from '../domain/text-length';
import { MaxChars, MinChars } from './text-length';

class Limited {
  @IsOptional() @MaxChars(120) name?: string;
  @IsOptional() @MinChars(2) @MaxChars(3) code?: string;
  @IsOptional() @MaxChars(2, { each: true }) tags?: string[];
}

/** What class-validator's own rule takes (validator.js's count), for the contrast. */
class Library {
  @MaxLength(120) name: string;
}

const errorsOf = (body: Record<string, unknown>) =>
  validateSync(plainToInstance(Limited, body)).map((e) => [e.property, Object.keys(e.constraints ?? {})]);

const VS16 = '\uFE0F';
const BANG = '\u{1F4A5}';

describe('length rules count code points, as JSON Schema does', () => {
  it('counts a variation selector as a character and a surrogate pair as one', () => {
    expect(codePointLength('a'.repeat(120) + VS16)).toBe(121);
    expect(codePointLength(BANG)).toBe(1);
    expect(codePointLength(`${BANG}${VS16}`)).toBe(2);
    // A lone surrogate is one code point of its own.
    expect(codePointLength('\ud800x')).toBe(2);
    expect(codePointLength('')).toBe(0);
  });

  it('refuses 120 characters and a U+FE0F against maxLength 120 (validator.js takes it)', () => {
    const name = 'a'.repeat(120) + VS16;
    expect(errorsOf({ name })).toEqual([['name', ['maxLength']]]);
    expect(validateSync(plainToInstance(Library, { name }))).toEqual([]);
    expect(errorsOf({ name: 'a'.repeat(120) })).toEqual([]);
    expect(errorsOf({ name: 'a'.repeat(119) + VS16 })).toEqual([]);
  });

  it('counts an astral character once at the bound', () => {
    expect(errorsOf({ name: BANG.repeat(120) })).toEqual([]);
    expect(errorsOf({ name: BANG.repeat(121) })).toEqual([['name', ['maxLength']]]);
    expect(errorsOf({ code: BANG })).toEqual([['code', ['minLength']]]);
    expect(errorsOf({ code: `${BANG}${BANG}` })).toEqual([]);
    expect(errorsOf({ code: `a${VS16}` })).toEqual([]);
    expect(errorsOf({ code: `ab${VS16}${VS16}` })).toEqual([['code', ['maxLength']]]);
  });

  it('refuses a value that is not a string, and each element of a list on its own', () => {
    expect(errorsOf({ name: 12 })).toEqual([['name', ['maxLength']]]);
    expect(errorsOf({ tags: ['ab', `${BANG}${BANG}`] })).toEqual([]);
    const [error] = validateSync(plainToInstance(Limited, { tags: ['ab', `a${VS16}${VS16}`] }));
    expect(error.constraints?.maxLength).toBe(
      'each value in tags must be shorter than or equal to 2 characters',
    );
  });

  it('registers as maxLength / minLength, the names the description turns into those keywords', () => {
    const rules = getMetadataStorage()
      .getTargetValidationMetadatas(Limited, '', true, false)
      .filter((r) => r.propertyName === 'code')
      .map((r) => [r.name, r.constraints]);
    expect(rules).toEqual(
      expect.arrayContaining([
        ['minLength', [2]],
        ['maxLength', [3]],
      ]),
    );
  });
});
