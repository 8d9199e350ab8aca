import { createHash } from 'node:crypto';
import type { Writable } from 'node:stream';
import { Client, Query } from 'pg';

/**
 * Names of statement texts to prepare: a text gets its name once it has run `prepareAfter`
 * times, and at most `max` texts get one (each connection keeps the plans of the statements it
 * has prepared until it closes). The name is a hash of the text, the same on every connection.
 */
export class StatementNames {
  private readonly seen = new Map<string, number>();
  private readonly names = new Map<string, string>();

  constructor(
    private readonly prepareAfter: number,
    private readonly max: number,
  ) {}

  /** The prepared-statement name of `text`, or undefined while it should run unnamed. */
  nameOf(text: string): string | undefined {
    const known = this.names.get(text);
    if (known) return known;
    if (this.names.size >= this.max) return undefined;
    const runs = (this.seen.get(text) ?? 0) + 1;
    if (runs < this.prepareAfter) {
      if (this.seen.size < this.max * 10) this.seen.set(text, runs);
      return undefined;
    }
    this.seen.delete(text);
    const name = `s${createHash('sha1').update(text).digest('base64url').slice(0, 16)}`;
    this.names.set(text, name);
    return name;
  }
}

const statementNames = new StatementNames(3, 400);

type QueryCallback = (error: Error | undefined, result: unknown) => void;

/**
 * The pool's client class: a parameterised statement that runs often is sent as a named
 * prepared statement, so PostgreSQL parses and plans it once per connection instead of at
 * every run (the repositories' statements are few and fixed; the SQL text is the key).
 */
export class PreparingClient extends Client {
  private holding = false;

  /**
   * A connection that fails while no statement of its holder is running (PostgreSQL shut down
   * between two statements of a transaction) emits `error` with no listener of its holder's to
   * take it: Node would throw it as an uncaught exception and end the process. Listened to here,
   * the client is only marked broken; its holder's next statement fails (503 for a request) and
   * the pool drops it on release.
   */
  constructor(...args: ConstructorParameters<typeof Client>) {
    super(...args);
    this.on('error', () => undefined);
  }

  override query(...args: unknown[]): never {
    this.holdWritesForTick();
    const [text, values, callback] = args;
    if (
      typeof text === 'string' &&
      Array.isArray(values) &&
      values.length > 0 &&
      (args.length === 2 || (args.length === 3 && typeof callback === 'function'))
    ) {
      const name = statementNames.nameOf(text);
      if (name) return this.named(name, text, values, callback as QueryCallback | undefined) as never;
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }

  /**
   * A named statement, submitted as a Query built from its text and named afterwards: given a
   * config object, pg copies it property by property (descriptors included) on every call.
   */
  private named(name: string, text: string, values: unknown[], callback?: QueryCallback): unknown {
    const query = new Query(text, values) as Query & { name: string; callback?: QueryCallback };
    query.name = name;
    const answered = callback
      ? undefined
      : new Promise((resolve, reject) => {
          query.callback = (error, result) => (error ? reject(error) : resolve(result));
        });
    if (callback) query.callback = callback;
    super.query(query);
    return answered;
  }

  /**
   * The pipelined connection sends a statement as soon as it is issued, one socket write each.
   * The socket is held (corked) from the first statement of a turn of the event loop until the
   * promise continuations of that turn have run (process.nextTick), so the statements issued
   * together (reads awaited with Promise.all, the gathered writes and COMMIT) leave in one write
   * and reach the server in one wake-up. A statement issued alone leaves as soon as the code that
   * issued it has yielded.
   */
  private holdWritesForTick(): void {
    if (this.holding) return;
    const stream = (this as unknown as { connection?: { stream?: Writable } }).connection?.stream;
    if (!stream || typeof stream.cork !== 'function' || !stream.writable) return;
    this.holding = true;
    stream.cork();
    process.nextTick(() => {
      this.holding = false;
      stream.uncork();
    });
  }
}
