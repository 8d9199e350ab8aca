import { Injectable, Type } from '@nestjs/common';
import { ApiValidationPipe } from '../http/validation.pipe';

/**
 * How one resource is imported in bulk. Each context registers its own at start-up, so
 * adding an importable resource is one `ImportRegistry.register(...)` call.
 */
export interface Importer<T = unknown> {
  /** The `resource` value of an import, e.g. `tags`, `accounts`. */
  resource: string;
  /** Validates one record (its `external_id` removed) as the REST create route would; throws a DomainError naming the field. No writes. */
  validate(record: Record<string, unknown>): Promise<T> | T;
  /**
   * Creates the resource (`existingId` null) or updates it, through the context's application
   * service (same rules, same events); runs inside the batch's transaction as the import's caller.
   */
  upsert(input: T, existingId: string | null): Promise<{ id: string }>;
}

/** The importers of every context, by resource name. */
@Injectable()
export class ImportRegistry {
  private readonly importers = new Map<string, Importer>();

  register<T>(importer: Importer<T>): void {
    this.importers.set(importer.resource, importer as Importer);
  }

  get(resource: string): Importer | undefined {
    return this.importers.get(resource);
  }

  resources(): string[] {
    return [...this.importers.keys()].sort();
  }
}

const pipe = new ApiValidationPipe();

/** Validates a record against a route's body DTO with the request pipeline's rules (unknown fields refused, `param` named). */
export async function validateAs<T extends object>(dto: Type<T>, record: Record<string, unknown>): Promise<T> {
  return (await pipe.transform(record, { type: 'body', metatype: dto })) as T;
}
