import { Inject, Injectable, OnModuleInit, Type } from '@nestjs/common';
import { ApiValidationPipe } from '../http/validation.pipe';

/**
 * How one resource is imported in bulk. Each context registers its own at start-up, so
 * adding an importable resource is one `ImportRegistry.register(...)` call.
 */
export interface Importer<T = unknown> {
  /** The `resource` value of an import, e.g. `tags`, `accounts`. */
  resource: string;
  /** The record's body schema (the REST create DTO): CSV uploads type numbers and booleans by it. */
  schema?: Type<object>;
  /** Validates one record (its `external_id` removed) as the REST create route would; throws a DomainError naming the field. No writes. */
  validate(record: Record<string, unknown>): Promise<T> | T;
  /**
   * Creates the resource (`existingId` null) or updates it, through the context's application
   * service (same rules, same events); runs inside the batch's transaction as the import's caller.
   */
  upsert(input: T, existingId: string | null): Promise<{ id: string }>;
  /**
   * Optional bulk path for records not imported before: creates them through the context's
   * application service in one go (same rules and events as `upsert(input, null)`, fewer
   * statements). Returns, in input order, the new id or the DomainError that refused the input.
   * Anything thrown fails the batch, which is then redone row by row through `upsert`.
   */
  createMany?(inputs: T[]): Promise<ImportOutcome[]>;
  /**
   * With `createMany`: whether the bulk path takes this new record (default: every one). The
   * others (cases the bulk path does not cover) are created through `upsert`, after the bulk ones.
   */
  createsInBulk?(input: T): boolean;
}

/** The result of one record of a bulk create: its id, or the error that refused it. */
export type ImportOutcome = { id: string } | { error: unknown };

/** ImportOutcome[] from a service's bulk create, which returns each resource or its DomainError. */
export const outcomes = (results: readonly ({ id: string } | Error)[]): ImportOutcome[] =>
  results.map((r) => (r instanceof Error ? { error: r } : { id: r.id }));

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
export async function validateAs<T extends object>(
  dto: Type<T>,
  record: Record<string, unknown>,
): Promise<T> {
  return (await pipe.transform(record, { type: 'body', metatype: dto })) as T;
}

/**
 * A context's importer as a provider: it registers itself with the ImportRegistry at start-up
 * and validates each record as the REST create route's body (`dto`). Subclasses pass the
 * resource and the DTO, and write `upsert` (and `createMany` where there is a bulk path).
 */
export abstract class BodyImporter<T extends object> implements Importer<T>, OnModuleInit {
  @Inject(ImportRegistry) private readonly registry!: ImportRegistry;

  constructor(
    readonly resource: string,
    readonly schema: Type<T>,
  ) {}

  onModuleInit(): void {
    this.registry.register<T>(this);
  }

  validate(record: Record<string, unknown>): Promise<T> {
    return validateAs(this.schema, record);
  }

  abstract upsert(input: T, existingId: string | null): Promise<{ id: string }>;
}

/** An application service whose create, update and bulk create an import writes through. */
export interface ImportTarget<T> {
  create(input: T): Promise<{ id: string }>;
  update(id: string, input: T): Promise<{ id: string }>;
  createMany(inputs: T[]): Promise<readonly ({ id: string } | Error)[]>;
}

/**
 * An importer writing through the resource's application service: new records with `createMany`,
 * known ones with `update` (a new one, if `createMany` fails the batch, with `create`).
 */
export abstract class ServiceImporter<T extends object> extends BodyImporter<T> {
  constructor(
    resource: string,
    schema: Type<T>,
    private readonly target: ImportTarget<T>,
  ) {
    super(resource, schema);
  }

  upsert(input: T, existingId: string | null) {
    return existingId ? this.target.update(existingId, input) : this.target.create(input);
  }

  async createMany(inputs: T[]) {
    return outcomes(await this.target.createMany(inputs));
  }
}
