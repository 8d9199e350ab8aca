import path from 'node:path';

/**
 * The architecture's dependency rules as lint (docs/architecture.md):
 * - `boundaries`: nothing under libs imports an app; the platform imports no context; a context
 *   imports another context only through that context's entry file (`#contexts/<name>`, i.e.
 *   libs/contexts/<name>/index.ts), and apps do too; accounting does not import webhooks; catalog
 *   does not import sales. Another library is named by its alias (`#platform/...`,
 *   `#contexts/<name>`, package.json "imports"), never by a relative path that climbs into it.
 * - `no-sql-outside-infrastructure`: the domain, application and worker layers of a context run
 *   no SQL: no `.query(...)`, no `createQueryBuilder(...)` or `scopedQuery(...)`, no query-builder
 *   chain (`.where(...)`, `.andWhere(...)`, `.orderBy(...)`, `.leftJoin(...)`, `.setLock(...)`,
 *   `.getMany()`...), no `getRepository(...)`, no column filter (`{ sql: 'status = ?', value }`),
 *   no TypeORM `EntityManager` / `DataSource` /
 *   `Repository` / `SelectQueryBuilder` / `QueryRunner` / `Brackets`. SQL belongs in the context's
 *   infrastructure repositories. Nor do they decide how statements are sent or when they commit:
 *   no `together(...)`, `combinedWrite(...)`, `.inOrder(...)`, `.sendAtCommit(...)`,
 *   `.sendWithCommit(...)`, `.gather(...)`, `.writeLast(...)`, `.afterCommit(...)`, the
 *   read-ahead posting calls (`.postingFacts(...)`, `.postingFactsForRoles(...)`,
 *   `.preparePosting(...)`, `.writePostings(...)`, `.writeWithCommit(...)`, `.buildPostings(...)`,
 *   `.writeBuiltPostings(...)`), no `withCommit` or `numberAtCommit` option, and no name of a
 *   commit-timing implementation (`KeyedBatches`, `StockMovementBatches`, `JournalPostingBatches`,
 *   `DemandRefreshAfterCommit`); a repository, writer or port adapter of
 *   infrastructure/ does, behind a port named for what the application needs.
 * - `outbox-owners`: only the outbox writers (platform/events, and the stock-movement and journal-entry
 *   writers that insert their events with their rows), the dispatch-lag metric and the webhooks
 *   context's dispatcher name the outbox table in SQL.
 * - `entry-files-only`: test/, bench/ and scripts/ import a context through its entry file
 *   (`#contexts/<name>`) and the platform through `#platform/...`, never by a path into libs/.
 */

/** The zone of a repository-relative path: an app, the platform, a context (with the rest of its path), or other. */
function zoneOf(relative) {
  const parts = relative.split(path.sep).join('/').split('/');
  if (parts[0] === 'apps') return { kind: 'app' };
  if (parts[0] === 'libs' && parts[1] === 'platform') return { kind: 'platform' };
  if (parts[0] === 'libs' && parts[1] === 'contexts' && parts[2]) {
    return { kind: 'context', name: parts[2], rest: parts.slice(3).join('/') };
  }
  return { kind: 'other' };
}

/** The repository-relative path an import names: a relative path, or one of the aliases. */
function targetOf(cwd, filename, source) {
  if (source.startsWith('.')) return path.relative(cwd, path.resolve(path.dirname(filename), source));
  if (source.startsWith('#platform/'))
    return path.join('libs', 'platform', source.slice('#platform/'.length));
  if (source.startsWith('#contexts/'))
    return path.join('libs', 'contexts', source.slice('#contexts/'.length));
  return null;
}

/** Whether two zones are the same library (the platform, or one context). */
const sameLibrary = (a, b) =>
  a.kind === b.kind && (a.kind === 'platform' || (a.kind === 'context' && a.name === b.name));

const FORBIDDEN_PAIRS = [
  ['accounting', 'webhooks'],
  ['catalog', 'sales'],
];

const boundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'Keeps the dependencies between apps, the platform and the bounded contexts.' },
    messages: {
      libsImportApp: 'Code under libs/ imports no app ({{target}}).',
      platformImportsContext: 'The platform imports no bounded context ({{target}}).',
      throughEntry:
        "Import the '{{context}}' context through its entry file (#contexts/{{context}}), not {{target}}.",
      forbiddenPair: "The '{{from}}' context does not depend on the '{{to}}' context.",
      useAlias: 'Name another library by its alias ({{alias}}), not by the relative path {{source}}.',
    },
    schema: [],
  },
  create(context) {
    const cwd = context.cwd ?? process.cwd();
    const file = path.relative(cwd, context.filename);
    const from = zoneOf(file);
    if (from.kind === 'other') return {};
    const check = (node) => {
      const source = node.source && node.source.value;
      if (typeof source !== 'string') return;
      const target = targetOf(cwd, context.filename, source);
      if (target === null) return;
      const to = zoneOf(target);
      const report = (messageId, data) => context.report({ node: node.source, messageId, data });
      if (from.kind !== 'app' && to.kind === 'app') return report('libsImportApp', { target });
      if (from.kind === 'platform' && to.kind === 'context')
        return report('platformImportsContext', { target });
      if (to.kind !== 'platform' && to.kind !== 'context') return;
      if (sameLibrary(from, to)) return;
      if (to.kind === 'context') {
        if (from.kind === 'context' && FORBIDDEN_PAIRS.some(([a, b]) => a === from.name && b === to.name)) {
          return report('forbiddenPair', { from: from.name, to: to.name });
        }
        if (to.rest !== '' && to.rest !== 'index')
          return report('throughEntry', { context: to.name, target });
      }
      if (source.startsWith('.')) {
        report('useAlias', {
          alias: to.kind === 'platform' ? '#platform/...' : `#contexts/${to.name}`,
          source,
        });
      }
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
    };
  },
};

/** The layers of a context that run no SQL: a worker is application code run off the request path. */
const SQL_FREE_LAYERS = new Set(['domain', 'application', 'worker']);

/** Calls that build or run SQL: TypeORM's query builder and repository, and scopedQuery(). */
const SQL_CALLS = new Set([
  'query',
  'createQueryBuilder',
  'scopedQuery',
  'getRepository',
  'where',
  'andWhere',
  'orWhere',
  'whereInIds',
  'andWhereInIds',
  'orWhereInIds',
  'having',
  'andHaving',
  'orHaving',
  'orderBy',
  'addOrderBy',
  'groupBy',
  'addGroupBy',
  'addSelect',
  'setLock',
  'setParameter',
  'setParameters',
  'getMany',
  'getOne',
  'getOneOrFail',
  'getRawMany',
  'getRawOne',
  'getManyAndCount',
]);

/**
 * How statements are sent (TransactionHost's pipelining and commit-time writes): the
 * infrastructure's repositories and writers decide it, behind methods named for what they write.
 */
const STATEMENT_TIMING_METHODS = new Set([
  'inOrder',
  'sendAtCommit',
  'sendWithCommit',
  'gather',
  'writeLast',
  'afterCommit',
  'postingFacts',
  'postingFactsForRoles',
  'preparePosting',
  'writePostings',
  'writeWithCommit',
  'buildPostings',
  'writeBuiltPostings',
]);
const STATEMENT_TIMING_FUNCTIONS = new Set(['together', 'combinedWrite']);
/** Options that choose when a write is sent or numbered. */
const COMMIT_TIMING_OPTIONS = new Set(['withCommit', 'numberAtCommit']);
/** Implementations of commit timing, which only infrastructure (and the platform) name. */
const COMMIT_TIMING_CLASSES = new Set([
  'KeyedBatches',
  'StockMovementBatches',
  'JournalPostingBatches',
  'DemandRefreshAfterCommit',
]);

/** A join of the query builder: leftJoin, innerJoinAndSelect, leftJoinAndMapMany... */
const isJoin = (name) => /^(left|inner)Join/.test(name);

/** TypeORM's handles on the database, which only infrastructure holds. */
const TYPEORM_HANDLES = new Set([
  'EntityManager',
  'DataSource',
  'Repository',
  'SelectQueryBuilder',
  'QueryRunner',
  'Brackets',
]);

const noSqlOutsideInfrastructure = {
  meta: {
    type: 'problem',
    docs: { description: 'No SQL in the domain, application and worker layers of a context.' },
    messages: {
      sql: "No SQL in {{layer}}/: put `{{what}}` in a repository of the context's infrastructure/.",
      typeorm: "No `{{name}}` in {{layer}}/: the context's infrastructure/ repositories own the database.",
      timing:
        "No statement ordering or commit timing in {{layer}}/: put `{{what}}` behind a repository or writer method of the context's infrastructure/.",
    },
    schema: [],
  },
  create(context) {
    const cwd = context.cwd ?? process.cwd();
    const zone = zoneOf(path.relative(cwd, context.filename));
    if (zone.kind !== 'context') return {};
    const layer = zone.rest.split('/')[0];
    if (!SQL_FREE_LAYERS.has(layer)) return {};
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type === 'Identifier' && STATEMENT_TIMING_FUNCTIONS.has(callee.name)) {
          context.report({ node, messageId: 'timing', data: { layer, what: `${callee.name}(...)` } });
        }
        if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier') return;
        const name = callee.property.name;
        if (STATEMENT_TIMING_METHODS.has(name)) {
          context.report({ node, messageId: 'timing', data: { layer, what: `.${name}(...)` } });
        }
        if (SQL_CALLS.has(name) || isJoin(name)) {
          context.report({ node, messageId: 'sql', data: { layer, what: `.${name}(...)` } });
        }
      },
      // A list's column filter ({ sql: 'status = ?', value }, TenantRepository.page()) is SQL too.
      Property(node) {
        if (node.parent.type !== 'ObjectExpression' || node.computed) return;
        const key = node.key.type === 'Identifier' ? node.key.name : node.key.value;
        if (key === 'sql') context.report({ node, messageId: 'sql', data: { layer, what: '{ sql: ... }' } });
        if (COMMIT_TIMING_OPTIONS.has(key)) {
          context.report({ node, messageId: 'timing', data: { layer, what: `{ ${key} }` } });
        }
      },
      // An option declared in a type (an interface or a parameter's type literal).
      TSPropertySignature(node) {
        if (node.computed || node.key.type !== 'Identifier') return;
        if (COMMIT_TIMING_OPTIONS.has(node.key.name)) {
          context.report({ node, messageId: 'timing', data: { layer, what: `${node.key.name}?: ...` } });
        }
      },
      Identifier(node) {
        if (!COMMIT_TIMING_CLASSES.has(node.name)) return;
        // Reported once per import, and per use in a file that declares the name itself.
        if (node.parent.type === 'ImportSpecifier' && node.parent.local !== node) return;
        context.report({ node, messageId: 'timing', data: { layer, what: node.name } });
      },
      ImportDeclaration(node) {
        if (node.source.value !== 'typeorm') return;
        for (const specifier of node.specifiers) {
          const name = specifier.imported && specifier.imported.name;
          if (TYPEORM_HANDLES.has(name)) {
            context.report({ node: specifier, messageId: 'typeorm', data: { layer, name } });
          }
        }
      },
    };
  },
};

/**
 * Who may name the outbox table in SQL (repository-relative paths): the platform's outbox writer
 * and its entity, the metrics gauge of the dispatch lag, the webhooks context's dispatcher (which
 * claims, marks and purges the rows), and the two writers that insert their events in the same
 * statement as the rows they describe (a stock movement, a journal entry).
 */
const OUTBOX_TABLE_OWNERS = [
  'libs/platform/events/',
  'libs/platform/observability/metrics.ts',
  'libs/contexts/webhooks/infrastructure/',
  'libs/contexts/inventory/infrastructure/stock-movement.writer.ts',
  'libs/contexts/accounting/infrastructure/journal-entry.writer.ts',
];

const outboxOwners = {
  meta: {
    type: 'problem',
    docs: { description: 'Only the outbox writers and the webhook dispatcher touch the outbox table.' },
    messages: {
      table:
        'Only the outbox writers and the webhook dispatcher name outbox_events in SQL; publish events through EventPublisher.',
    },
    schema: [],
  },
  create(context) {
    const cwd = context.cwd ?? process.cwd();
    const file = path.relative(cwd, context.filename).split(path.sep).join('/');
    if (!file.startsWith('libs/') || OUTBOX_TABLE_OWNERS.some((owner) => file.startsWith(owner))) return {};
    const names = (text) => /\boutbox_events\b/.test(text);
    return {
      Literal(node) {
        if (typeof node.value === 'string' && names(node.value)) context.report({ node, messageId: 'table' });
      },
      TemplateElement(node) {
        if (names(node.value.raw)) context.report({ node, messageId: 'table' });
      },
      CallExpression(node) {
        if (node.callee.type === 'Identifier' && node.callee.name === 'outboxInsertSql')
          context.report({ node, messageId: 'table' });
      },
    };
  },
};

/** The top folders whose code imports libraries only through their entry files. */
const OUTSIDE_FOLDERS = new Set(['test', 'bench', 'scripts']);

/**
 * Paths inside a context that are an entry of their own: the receiver-side signature verifier,
 * self-contained and shipped with the TypeScript client, is imported as a receiver imports it.
 */
const OWN_ENTRIES = new Set(['webhooks/verifier', 'webhooks/verifier/index']);

const entryFilesOnly = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'test/, bench/ and scripts/ import the contexts and the platform through their entry files.',
    },
    messages: {
      throughEntry:
        "Import the '{{context}}' context through its entry file (#contexts/{{context}}), not {{target}}; test support it offers on purpose is exported there.",
      useAlias: 'Import the platform by its alias ({{alias}}), not by the relative path {{source}}.',
    },
    schema: [],
  },
  create(context) {
    const cwd = context.cwd ?? process.cwd();
    const top = path.relative(cwd, context.filename).split(path.sep).join('/').split('/')[0];
    if (!OUTSIDE_FOLDERS.has(top)) return {};
    const check = (node) => {
      const source = node.source && node.source.value;
      if (typeof source !== 'string') return;
      const target = targetOf(cwd, context.filename, source);
      if (target === null) return;
      const to = zoneOf(target);
      if (
        to.kind === 'context' &&
        to.rest !== '' &&
        to.rest !== 'index' &&
        !OWN_ENTRIES.has(`${to.name}/${to.rest}`)
      ) {
        context.report({
          node: node.source,
          messageId: 'throughEntry',
          data: { context: to.name, target: target.split(path.sep).join('/') },
        });
      } else if (to.kind === 'platform' && source.startsWith('.')) {
        const rest = target.split(path.sep).slice(2).join('/');
        context.report({
          node: node.source,
          messageId: 'useAlias',
          data: { alias: `#platform/${rest}`, source },
        });
      }
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression(node) {
        if (node.source.type === 'Literal') check(node);
      },
    };
  },
};

export default {
  rules: {
    boundaries,
    'no-sql-outside-infrastructure': noSqlOutsideInfrastructure,
    'entry-files-only': entryFilesOnly,
    'outbox-owners': outboxOwners,
  },
};
