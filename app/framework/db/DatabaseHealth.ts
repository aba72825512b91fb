/**
 * Whether the database can take writes. A storage failure (disk full, read-only, I/O error,
 * corrupt file; see storageFailure) marks it degraded with that reason; the next write that
 * commits, or a write probe that succeeds, clears it. Reads may still work while degraded, which
 * is why `select 1` alone cannot tell.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { storageFailure, type StorageFailure } from './driverErrors.js';

/** A table of the runtime's own for the probe, created on first need (one row at rest). */
export const PROBE_TABLE = 'framework_write_probe';
/** Larger than a page, so the probe must be given fresh pages, as a real write would. */
const PROBE_FILLER = 'x'.repeat(8192);

export class DatabaseHealth {
  private reason: StorageFailure | null = null;
  private probing?: Promise<void>;

  constructor(private readonly knex: Knex) {}

  /** The reason writes fail, or null when they work (as far as is known). */
  get degraded(): StorageFailure | null {
    return this.reason;
  }

  /** Looks at every error a request ends with; remembers a storage failure. */
  observe(error: unknown): void {
    this.reason =
      storageFailure((error as { cause?: unknown })?.cause ?? error) ?? storageFailure(error) ?? this.reason;
  }

  writeSucceeded(): void {
    this.reason = null;
  }

  /** Writes (and commits) a probe row; clears the degraded state when that works. One probe at a time. */
  probe(): Promise<void> {
    this.probing ??= this.writeProbe().finally(() => (this.probing = undefined));
    return this.probing;
  }

  private async writeProbe(): Promise<void> {
    try {
      if (!(await this.knex.schema.hasTable(PROBE_TABLE))) {
        await this.knex.schema
          .createTable(PROBE_TABLE, (table) => {
            table.string('token', 36).notNullable();
            table.text('filler').notNullable();
          })
          .catch(async (error: unknown) => {
            // Another process created it first.
            if (!(await this.knex.schema.hasTable(PROBE_TABLE))) throw error;
          });
      }
      const token = randomUUID();
      await this.knex.transaction(async (trx) => {
        await trx(PROBE_TABLE).insert({ token, filler: PROBE_FILLER });
        await trx(PROBE_TABLE).whereNot({ token }).delete();
      });
      this.writeSucceeded();
    } catch (error) {
      this.observe(error);
    }
  }
}
