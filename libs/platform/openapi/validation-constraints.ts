import type { OpenAPIObject } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

type PropertySchema = Record<string, unknown>;

/** OpenAPI keywords for the class-validator rules that have one, by rule name. */
const KEYWORDS: Record<string, (constraints: unknown[]) => PropertySchema> = {
  arrayMinSize: ([n]) => ({ minItems: n }),
  arrayMaxSize: ([n]) => ({ maxItems: n }),
  minLength: ([n]) => ({ minLength: n }),
  maxLength: ([n]) => ({ maxLength: n }),
  min: ([n]) => ({ minimum: n }),
  max: ([n]) => ({ maximum: n }),
};

/**
 * Writes the limits that the DTOs enforce (array sizes, string lengths, numeric bounds) into the
 * OpenAPI schemas of the same name, so the description states every limit the API checks. A
 * keyword the @ApiProperty() already sets is kept. `dtoClasses`: the classes of the routes'
 * parameters.
 */
export function addValidationConstraints(
  document: OpenAPIObject,
  dtoClasses: Iterable<unknown>,
): OpenAPIObject {
  const storage = getMetadataStorage();
  const targets = (storage as unknown as { validationMetadatas: Map<unknown, ValidationMetadata[]> })
    .validationMetadatas;
  // Classes with rules of their own, and the routes' parameter classes, which may only inherit
  // theirs (PartialType() and OmitType() subclasses).
  const byName = new Map<string, new () => unknown>();
  for (const target of [...targets.keys(), ...dtoClasses]) {
    if (typeof target === 'function' && target.name) byName.set(target.name, target as new () => unknown);
  }
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
    const target = byName.get(name);
    const properties = (schema as { properties?: Record<string, PropertySchema> }).properties;
    if (!target || !properties) continue;
    for (const rule of storage.getTargetValidationMetadatas(target, '', true, false)) {
      const property = properties[rule.propertyName];
      const keyword = rule.name ? KEYWORDS[rule.name] : undefined;
      if (!property || !keyword || rule.each) continue;
      for (const [key, value] of Object.entries(keyword(rule.constraints ?? []))) {
        if (property[key] === undefined && value !== undefined) property[key] = value;
      }
    }
  }
  return document;
}
