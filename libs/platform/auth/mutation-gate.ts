import { Injectable, SetMetadata } from '@nestjs/common';
import type { Request } from 'express';
import { Caller } from '../tenancy/request-context';

/** Methods that change state; every one of them passes the registered gates. */
export const MUTATING_METHODS: ReadonlySet<string> = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

export const GATE_EXEMPT_KEY = 'erp:gate-exempt';

/**
 * Marks a route that must stay usable while mutations are gated (the cutover freeze and
 * unfreeze themselves, bulk imports run by migration callers).
 */
export const AllowWhileFrozen = () => SetMetadata(GATE_EXEMPT_KEY, true);

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
