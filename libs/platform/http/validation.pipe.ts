import { ArgumentMetadata, Injectable, PipeTransform, ValidationError, ValidationPipe } from '@nestjs/common';
import { validateSync } from 'class-validator';
import { PlatformError } from '../errors/domain-error';

function isIndex(property: string) {
  return /^\d+$/.test(property);
}

const join = (parent: string, property: string) =>
  parent === '' ? property : isIndex(property) ? `${parent}[${property}]` : `${parent}.${property}`;

/** The first leaf error with its dotted path, e.g. `items[0].quantity`. */
function firstLeaf(
  errors: ValidationError[],
  parent = '',
): { path: string; error: ValidationError } | undefined {
  for (const error of errors) {
    const path = join(parent, error.property);
    if (error.constraints && Object.keys(error.constraints).length > 0) return { path, error };
    const child = firstLeaf(error.children ?? [], path);
    if (child) return child;
  }
  return undefined;
}

/**
 * class-validator blames the whole array for a failed `each: true` rule; re-validates the
 * elements one at a time to name the first one at fault, e.g. `scopes[2]`.
 */
function failingElement(error: ValidationError): number | undefined {
  const { target, property, value, constraints = {} } = error;
  if (
    !Array.isArray(value) ||
    !target ||
    !Object.values(constraints).every((m) => m.startsWith('each value in'))
  )
    return undefined;
  for (let i = 0; i < value.length; i++) {
    const probe = Object.assign(Object.create(Object.getPrototypeOf(target) as object) as object, target, {
      [property]: [value[i]],
    });
    if (validateSync(probe, { forbidUnknownValues: false }).some((e) => e.property === property)) return i;
  }
  return undefined;
}

function toPlatformError(errors: ValidationError[], location: string): PlatformError {
  const leaf = firstLeaf(errors);
  if (!leaf) return new PlatformError('parameter_invalid', { hint: `Invalid ${location}.` }).asPreHandler();
  const { error } = leaf;
  const index = failingElement(error);
  const path = index === undefined ? leaf.path : `${leaf.path}[${index}]`;
  const constraints = error.constraints ?? {};
  if (constraints.whitelistValidation) {
    return new PlatformError('parameter_unknown', {
      param: path,
      hint: `Received unknown parameter: ${path}.`,
    }).asPreHandler();
  }
  if (error.value === undefined || (error.value === null && constraints.isDefined)) {
    return new PlatformError('parameter_missing', {
      param: path,
      hint: `Missing required parameter: ${path}.`,
    }).asPreHandler();
  }
  const messages = Object.values(constraints).join('; ');
  return new PlatformError('parameter_invalid', {
    param: path,
    hint: `Invalid ${path}: ${messages}.`,
  }).asPreHandler();
}

const isEmptyObject = (value: unknown): boolean => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const key in value) if (Object.prototype.hasOwnProperty.call(value, key)) return false;
  return Object.getOwnPropertySymbols(value).length === 0;
};

/**
 * Validates bodies and queries against their DTOs: unknown fields are refused, types are
 * converted explicitly, and every failure names its parameter path.
 */
@Injectable()
export class ApiValidationPipe implements PipeTransform {
  private readonly inner = new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: true, value: true },
    stopAtFirstError: true,
    exceptionFactory: (errors) => toPlatformError(errors, 'request'),
  });

  /**
   * Query DTOs whose empty query is known to transform to a bare instance and to pass
   * validation (true), or not (false). A GET without query parameters (the common case) then
   * skips class-transformer and class-validator, which would find nothing to convert or refuse.
   */
  private readonly emptyQueryOk = new Map<unknown, boolean>();

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'query' && typeof metadata.metatype === 'function' && isEmptyObject(value)) {
      const metatype = metadata.metatype as new () => object;
      const known = this.emptyQueryOk.get(metatype);
      if (known) return new metatype();
      if (known === undefined) {
        let result: unknown;
        try {
          result = await this.inner.transform(value, metadata);
        } catch (error) {
          this.emptyQueryOk.set(metatype, false);
          throw error;
        }
        this.emptyQueryOk.set(metatype, result instanceof metatype && Reflect.ownKeys(result).length === 0);
        return result;
      }
    }
    if (metadata.type === 'body') {
      if (value === undefined || value === null || value === '') value = {};
      if (typeof value !== 'object' || Array.isArray(value)) {
        throw new PlatformError('parameter_invalid', {
          hint: 'The request body must be a JSON object.',
        }).asPreHandler();
      }
    }
    if (metadata.type === 'param' && metadata.metatype === String) return value;
    return this.inner.transform(value, metadata);
  }
}
