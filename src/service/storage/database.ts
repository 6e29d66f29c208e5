import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { privateFile, privateFolder, privateIfPresent } from '../data-dir';
import { MIGRATIONS } from './migrations';

/**
 * A prepared statement as the stores use it: SQLite checks the parameters' types when it binds them, and the
 * caller names the row type it selected.
 */
export interface Statement {
  run(...params: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

export const DATABASE_FILE = 'dockhand.db';

/** The most of the file SQLite maps into memory for reading. */
const MMAP_BYTES = 256 * 1024 * 1024;

/**
 * A connection to one SQLite file through `node:sqlite`, which Node and Electron both carry: the main
 * process loads no native module that must match Electron's ABI.
 */
export class Db {
  private readonly connection: DatabaseSync;

  constructor(readonly file: string) {
    this.connection = new DatabaseSync(file);
  }

  prepare(sql: string): Statement {
    return this.connection.prepare(sql) as Statement;
  }

  exec(sql: string): void {
    this.connection.exec(sql);
  }

  close(): void {
    this.connection.close();
  }

  /**
   * `fn` made to run in one transaction: committed when it returns, rolled back when it throws. Inside
   * another transaction it runs as a savepoint, so only its own writes roll back.
   */
  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
    return (...args) => {
      const nested = this.connection.isTransaction;
      this.exec(nested ? 'SAVEPOINT nested' : 'BEGIN');
      try {
        const result = fn(...args);
        this.exec(nested ? 'RELEASE nested' : 'COMMIT');
        return result;
      } catch (error) {
        // Some errors (a full disk) make SQLite roll the whole transaction back by itself.
        if (this.connection.isTransaction) {
          this.exec(nested ? 'ROLLBACK TO nested; RELEASE nested' : 'ROLLBACK');
        }
        throw error;
      }
    };
  }
}

/**
 * Opens (and creates) the SQLite file in the data folder, then applies pending migrations. The file is
 * private (0600) before SQLite opens it: SQLite creates a database 0644, but its `-wal` and `-shm` with the
 * database's own mode, so all three stay private (ones left by a crash are made private too).
 */
export function openDatabase(dataDir: string): Db {
  privateFolder(dataDir);
  const file = path.join(dataDir, DATABASE_FILE);
  privateFile(file);
  privateIfPresent(`${file}-wal`);
  privateIfPresent(`${file}-shm`);
  const db = new Db(file);
  db.exec(`
    PRAGMA journal_mode = WAL;
    PRAGMA synchronous = NORMAL;
    PRAGMA foreign_keys = ON;
    PRAGMA busy_timeout = 5000;
  `);
  // Reads through a memory map (writes still go through write()): replaying a long conversation reads every row,
  // and node:sqlite's default 2 MB page cache would otherwise copy each page in again.
  db.exec(`PRAGMA mmap_size = ${MMAP_BYTES}`);
  migrate(db);
  return db;
}

/** Applies every migration newer than the file's `user_version`, each in its own transaction. */
export function migrate(db: Db): void {
  const { user_version: current } = db.prepare('PRAGMA user_version').get() as { user_version: number };
  for (const migration of [...MIGRATIONS].sort((a, b) => a.version - b.version)) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.exec(`PRAGMA user_version = ${migration.version}`);
    })();
  }
}
