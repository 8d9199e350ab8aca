import 'reflect-metadata';
import { ApiProperty, ApiPropertyOptional, DECORATORS } from '@nestjs/swagger';
import { getMetadataStorage, IsOptional, IsString, validateSync, ValidateIf } from 'class-validator';
import { plainToInstance } from 'class-transformer';
import { NullableText, RequiredList, RequiredText, RequiredUnless } from './dto-fields';
import { ResourceResponse } from './response-schema';
import { MaxChars } from './text-length';

class Written {
  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxChars(5)
  note?: string | null;
}

class Composed {
  @NullableText(5) note?: string | null;
}

class Line {
  @RequiredText(3) code: string;
}

class Lines {
  @RequiredList(Line, 1, 2) lines: Line[];
}

class Document {
  @IsOptional() @IsString() kind?: string;

  @RequiredUnless({ field: 'kind', values: ['purchase'], fallback: 'sale' }, {}, IsString())
  account?: string | null;
}

const rules = (target: new () => unknown) =>
  getMetadataStorage()
    .getTargetValidationMetadatas(target, '', true, false)
    .map((rule) => `${rule.propertyName}:${rule.type}:${rule.name ?? ''}`);

const errors = (target: new () => object, body: object) =>
  validateSync(plainToInstance(target, body)).map((e) => [e.property, Object.keys(e.constraints ?? {})]);

describe('DTO field decorators', () => {
  it('register the rules in the order of the same decorators written out, so the same rule fails first', () => {
    expect(rules(Composed)).toEqual(rules(Written));
    for (const note of [7, 'too long', null, undefined, 'ok']) {
      expect(errors(Composed, { note })).toEqual(errors(Written, { note }));
    }
  });

  it('document the field as written out', () => {
    const doc = (target: new () => unknown) =>
      Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, target.prototype, 'note') as Record<
        string,
        unknown
      >;
    expect(doc(Composed)).toEqual(doc(Written));
  });

  it('validate each element of a list as its class, within the size bounds', () => {
    expect(errors(Lines, { lines: [{ code: 'abc' }] })).toEqual([]);
    expect(errors(Lines, { lines: [] })[0]).toEqual(['lines', ['arrayMinSize']]);
    expect(validateSync(plainToInstance(Lines, { lines: [{ code: 'abcd' }] }))[0].children?.length).toBe(1);
  });
});

describe('ResourceResponse', () => {
  @ResourceResponse('thing')
  class ThingResponse {
    @ApiProperty() name: string;
    @ApiProperty() size: number;
  }

  @ResourceResponse('part', { objectEnum: true, tail: ['created_at'] })
  class PartResponse {
    @ApiProperty() name: string;
  }

  const properties = (target: new () => unknown) =>
    Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, target.prototype) as string[];
  const doc = (target: new () => unknown, key: string) =>
    Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, target.prototype, key) as Record<string, unknown>;

  it('documents id and object first and the closing fields last, around the class own fields', () => {
    expect(properties(ThingResponse)).toEqual([
      ':id',
      ':object',
      ':name',
      ':size',
      ':livemode',
      ':created_at',
      ':updated_at',
    ]);
    expect(properties(PartResponse)).toEqual([':id', ':object', ':name', ':created_at']);
  });

  it('documents each added field as its hand-written form did', () => {
    expect(doc(ThingResponse, 'id')).toMatchObject({ type: String, format: 'uuid' });
    expect(doc(ThingResponse, 'object')).toMatchObject({ type: String, example: 'thing' });
    expect(doc(ThingResponse, 'object')).not.toHaveProperty('enum');
    expect(doc(PartResponse, 'object')).toMatchObject({ enum: ['part'], example: 'part' });
    expect(doc(ThingResponse, 'livemode')).toMatchObject({ type: Boolean });
    expect(doc(ThingResponse, 'updated_at')).toMatchObject({ type: String, format: 'date-time' });
  });
});

describe('RequiredUnless', () => {
  const failures = (body: object) =>
    validateSync(plainToInstance(Document, body)).map((e) => Object.keys(e.constraints ?? {}).join());

  it('requires the field, not null, unless the condition field holds one of the values', () => {
    // A missing value fails the value rules too; the pipe answers parameter_missing for it.
    expect(failures({})).toEqual([expect.stringContaining('requiredUnless')]);
    expect(failures({ kind: 'sale', account: null })).toEqual([expect.stringContaining('requiredUnless')]);
    expect(failures({ kind: 'sale', account: 'a' })).toEqual([]);
    expect(failures({ kind: 'purchase' })).toEqual([]);
    expect(failures({ kind: 'purchase', account: null })).toEqual([]);
  });

  it('checks the other rules on a value sent, whatever the condition', () => {
    expect(failures({ kind: 'purchase', account: 5 })).toEqual(['isString']);
    expect(failures({ account: 5 })).toEqual(['isString']);
  });
});
