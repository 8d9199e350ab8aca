import { randomUUID } from 'node:crypto';
import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Request } from 'express';
import { MutationGate, MutationGates } from '#platform/auth/mutation-gate';
import { EventPublisher } from '#platform/events/event-publisher';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listEnvelope, ListPage } from '#platform/http/list/paginate';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { Caller, RequestContext } from '#platform/tenancy/request-context';
import { assertUnfreezable, FREEZE_TOKEN_HEADER, FROZEN_HINTS, judgeFrozenMutation } from '../domain/freeze';
import { MigrationError } from '../domain/migration-error';
import { EntityFreezeRecord, FreezeHistoryRecord } from '../infrastructure/freeze.entity';
import { FreezeStateCache } from '../infrastructure/freeze-state.cache';
import { FreezeHistoryRepository } from '../infrastructure/freeze-history.repository';
import { FreezeRepository } from '../infrastructure/freeze.repository';

export interface FreezeStatusResource {
  object: 'entity_freeze_status';
  entity_id: string;
  livemode: boolean;
  frozen: boolean;
  freeze_token: string | null;
  frozen_at: string | null;
  frozen_by: { user_id: null; api_key_id: string | null } | null;
  reason: string | null;
  idempotent: boolean;
  unfrozen_at?: string;
}

export interface FreezeHistoryResource {
  id: string;
  object: 'entity_freeze_event';
  action: 'freeze' | 'unfreeze';
  reason: string | null;
  actor: { user_id: null; api_key_id: string | null };
  request_id: string | null;
  livemode: boolean;
  created_at: string;
}

const unfrozenStatus = (entityId: string, livemode: boolean): FreezeStatusResource => ({
  object: 'entity_freeze_status',
  entity_id: entityId,
  livemode,
  frozen: false,
  freeze_token: null,
  frozen_at: null,
  frozen_by: null,
  reason: null,
  idempotent: false,
});

const toStatus = (row: EntityFreezeRecord, idempotent = false): FreezeStatusResource =>
  row.frozen
    ? {
        object: 'entity_freeze_status',
        entity_id: row.entityId,
        livemode: row.livemode,
        frozen: true,
        freeze_token: row.freezeToken,
        frozen_at: row.frozenAt?.toISOString() ?? null,
        // There are no user accounts yet: only API keys act, so user_id is always null.
        frozen_by: { user_id: null, api_key_id: row.frozenByKeyId },
        reason: row.reason,
        idempotent,
      }
    : unfrozenStatus(row.entityId, row.livemode);

const toHistory = (row: FreezeHistoryRecord): FreezeHistoryResource => ({
  id: row.id,
  object: 'entity_freeze_event',
  action: row.action,
  reason: row.reason,
  actor: { user_id: null, api_key_id: row.apiKeyId },
  request_id: row.requestId,
  livemode: row.livemode,
  created_at: row.createdAt.toISOString(),
});

/** The event payload never carries the freeze token: webhook receivers must not learn the bypass. */
const withoutToken = ({ freeze_token: _token, ...rest }: FreezeStatusResource) => rest;

/**
 * Cutover freeze of an entity (per mode): while frozen, every mutation of every route is
 * refused with 423 unless a migration caller sends the freeze token. The state is read
 * from PostgreSQL once and kept in FreezeStateCache; a freeze or unfreeze evicts it on every
 * API instance when it commits (NOTIFY), so mutations need no query of their own.
 */
@Injectable()
export class FreezeService implements OnModuleInit, MutationGate {
  readonly name = 'entity-freeze';

  constructor(
    private readonly tx: TransactionHost,
    private readonly freezes: FreezeRepository,
    private readonly history: FreezeHistoryRepository,
    private readonly events: EventPublisher,
    private readonly gates: MutationGates,
    private readonly states: FreezeStateCache,
  ) {}

  onModuleInit(): void {
    this.gates.register(this);
  }

  /** The mutation gate: 423 `entity_frozen` unless the caller may pass the freeze. */
  async check(req: Request, caller: Caller): Promise<void> {
    const freezeToken = await this.freezeToken(caller.entityId, caller.livemode);
    if (freezeToken === null) return;
    const header = req.headers[FREEZE_TOKEN_HEADER];
    const verdict = judgeFrozenMutation({
      scopes: caller.scopes,
      headerToken: Array.isArray(header) ? header[0] : header,
      freezeToken,
    });
    if (verdict !== 'allowed')
      throw new MigrationError('entity_frozen', { hint: FROZEN_HINTS[verdict] }).asPreHandler();
  }

  /** The entity's freeze token, or null when it is not frozen (cached until a freeze or unfreeze). */
  private async freezeToken(entityId: string, livemode: boolean): Promise<string | null> {
    const key = FreezeStateCache.key(entityId, livemode);
    const cached = this.states.get(key);
    if (cached !== undefined) return cached;
    const startedAt = this.states.begin();
    const token = await this.freezes.freezeToken(entityId, livemode);
    this.states.set(key, token, startedAt);
    return token;
  }

  async status(): Promise<FreezeStatusResource> {
    const { entityId, livemode } = RequestContext.caller();
    const row = await this.freezes.current();
    return row ? toStatus(row) : unfrozenStatus(entityId, livemode);
  }

  /** Freezes the entity in the caller's mode; a repeated freeze returns the same token with `idempotent: true`. */
  async freeze({ reason }: { reason?: string }): Promise<FreezeStatusResource> {
    return this.tx.run(async () => {
      const caller = RequestContext.caller();
      const row = await this.freezes.createAndLockCurrent();
      if (row.frozen) return toStatus(row, true);
      Object.assign(row, {
        frozen: true,
        freezeToken: randomUUID(),
        frozenAt: new Date(),
        frozenByKeyId: caller.apiKeyId,
        reason: reason ?? null,
        unfrozenAt: null,
      });
      const status = toStatus(await this.freezes.save(row));
      await this.recordChange(caller, 'freeze', reason);
      await this.events.publish('migration.frozen', withoutToken(status));
      return status;
    });
  }

  /** Lifts the freeze; 409 `invalid_state` when the entity is not frozen. */
  async unfreeze({ reason }: { reason?: string }): Promise<FreezeStatusResource> {
    return this.tx.run(async () => {
      const caller = RequestContext.caller();
      const row = await this.freezes.lockCurrent();
      assertUnfreezable(row);
      const ended = toStatus(row);
      const unfrozenAt = new Date();
      Object.assign(row, { frozen: false, freezeToken: null, unfrozenAt, reason: reason ?? null });
      await this.freezes.save(row);
      await this.recordChange(caller, 'unfreeze', reason);
      const status: FreezeStatusResource = {
        ...ended,
        frozen: false,
        freeze_token: null,
        reason: reason ?? null,
        unfrozen_at: unfrozenAt.toISOString(),
      };
      await this.events.publish('migration.unfrozen', withoutToken(status));
      return status;
    });
  }

  /** Announces the changed freeze state (to every instance's cache) and writes its audit row. */
  private async recordChange(caller: Caller, action: 'freeze' | 'unfreeze', reason: string | undefined) {
    await this.states.announce(this.tx.transactional, FreezeStateCache.key(caller.entityId, caller.livemode));
    await this.history.create({
      action,
      reason: reason ?? null,
      apiKeyId: caller.apiKeyId,
      requestId: RequestContext.requestId() ?? null,
    });
  }

  /** The audit log of freezes and unfreezes, newest first. */
  async listHistory(query: ListQueryDto, url: string): Promise<ListPage<FreezeHistoryResource>> {
    const page = await this.history.page(query, { url });
    return listEnvelope(page.rows.map(toHistory), page, url);
  }
}
