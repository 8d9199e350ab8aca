import { applyDecorators, Injectable, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import type { Request } from 'express';
import { Caller } from '../tenancy/request-context';

/** Methods that change state; every one of them passes the registered gates. */
export const MUTATING_METHODS: ReadonlySet<string> = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

export const GATE_EXEMPT_KEY = 'erp:gate-exempt';

/** The OpenAPI extension that marks an operation the mutation gates let through. */
export const ALLOWED_WHILE_FROZEN_EXTENSION = 'x-allowed-while-frozen';

/**
 * Marks a route that must stay usable while mutations are gated (the cutover freeze and
 * unfreeze themselves, bulk imports run by migration callers). Its description says so
 * (`x-allowed-while-frozen`) and lists neither 423 nor the freeze-token header.
 */
export const AllowWhileFrozen = () =>
  applyDecorators(SetMetadata(GATE_EXEMPT_KEY, true), ApiExtension(ALLOWED_WHILE_FROZEN_EXTENSION, true));

/** A check every mutation passes after authentication and scopes; it throws a DomainError to refuse. */
export interface MutationGate {
  name: string;
  check(req: Request, caller: Caller): Promise<void>;
}

/**
 * The gates that the global guard runs on every mutation of every route (present and
 * future); contexts register theirs at start-up (the migration context's entity freeze).
 */
@Injectable()
export class MutationGates {
  private readonly gates: MutationGate[] = [];

  register(gate: MutationGate): void {
    if (!this.gates.some((g) => g.name === gate.name)) this.gates.push(gate);
  }

  async check(req: Request, caller: Caller): Promise<void> {
    for (const gate of this.gates) await gate.check(req, caller);
  }
}
