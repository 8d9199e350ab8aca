import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { rawPool } from '../persistence/raw-pool';
import { generateKey, hasValidChecksum, parseKey } from './key-format';
import { Mode } from '../tenancy/request-context';

/**
 * The server's API-key checksum secret (table `platform_secrets`, made by a migration and shared
 * by every instance on the database), read once at start-up. Keys are issued with a checksum
 * under it; a key of that format whose checksum is wrong is refused without a database read.
 */
@Injectable()
export class KeyChecksum implements OnModuleInit {
  private secret?: Buffer;

  constructor(private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    const { rows } = await rawPool(this.dataSource).query<{ value: string }>(
      `SELECT value FROM platform_secrets WHERE name = 'api_key_checksum'`,
    );
    if (!rows[0]) throw new Error('platform_secrets has no api_key_checksum: run the migrations');
    this.secret = Buffer.from(rows[0].value, 'hex');
  }

  private get key(): Buffer {
    if (!this.secret) throw new Error('KeyChecksum used before the module was initialised');
    return this.secret;
  }

  /** A new key with its checksum. */
  generate(mode: Mode, entityCode: string): string {
    return generateKey(mode, entityCode, this.key);
  }

  /**
   * False only for a key that has the checksummed format and a wrong checksum: a guess, refused
   * without a lookup. Keys issued before checksums (40 random characters) are not judged here:
   * they keep working through the lookup.
   */
  plausible(token: string): boolean {
    const parsed = parseKey(token);
    if (!parsed) return false;
    return !parsed.checksummed || hasValidChecksum(token, this.key);
  }

  /** True for a key of the checksummed format whose checksum is right: no guess can be one. */
  vouchedFor(token: string): boolean {
    const parsed = parseKey(token);
    return parsed !== null && parsed.checksummed && hasValidChecksum(token, this.key);
  }
}
