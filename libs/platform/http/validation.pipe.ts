import { ArgumentMetadata, Injectable, PipeTransform, ValidationError, ValidationPipe } from '@nestjs/common';
import { PlatformError } from '../errors/domain-error';

function isIndex(property: string) {
  return /^\d+$/.test(property);
}

const join = (parent: string, property: string) =>
  parent === '' ? property : isIndex(property) ? `${parent}[${property}]` : `${parent}.${property}`;

/** The first leaf error with its dotted path, e.g. `items[0].quantity`. */
function firstLeaf(errors: ValidationError[], parent = ''): { path: string; error: ValidationError } | undefined {
  for (const error of errors) {
    const path = join(parent, error.property);
    if (error.constraints && Object.keys(error.constraints).length > 0) return { path, error };
    const child = firstLeaf(error.children ?? [], path);
    if (child) return child;
  }
  return undefined;
}

function toPlatformError(errors: ValidationError[], location: string): PlatformError {
  const leaf = firstLeaf(errors);
  if (!leaf) return new PlatformError('parameter_invalid', { hint: `Invalid ${location}.` }).asPreHandler();
  const { path, error } = leaf;
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
  return new PlatformError('parameter_invalid', { param: path, hint: `Invalid ${path}: ${messages}.` }).asPreHandler();
}

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
    validationError: { target: false, value: true },
    stopAtFirstError: true,
    exceptionFactory: (errors) => toPlatformError(errors, 'request'),
  });

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body') {
      if (value === undefined || value === null || value === '') value = {};
      if (typeof value !== 'object' || Array.isArray(value)) {
        throw new PlatformError('parameter_invalid', { hint: 'The request body must be a JSON object.' }).asPreHandler();
      }
    }
    if (metadata.type === 'param' && metadata.metatype === String) return value;
    return this.inner.transform(value, metadata);
  }
}
