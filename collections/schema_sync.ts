/**
 * Schema sync: on open, tables, columns, indexes, junction and translation tables are created
 * or altered to match the definitions, on SQLite and PostgreSQL alike. Additive changes (a
 * new collection, a new nullable or defaulted field, a new or dropped index, a field no
 * longer required) apply automatically; destructive ones (a removed field, a changed kind or
 * target, a field becoming required without a default, a new required field on a table with
 * rows, a field changing translatability) are refused with an error naming the collection
 * and field unless `force` is set. A dropped collection is not destructive: its table stays.
 * The last synced definitions are kept in `_strata_schema`.
 *
 * @module
 */

// deno-lint-ignore-file no-explicit-any
import { type Kysely, sql } from "kysely";
import type { SqlDialect } from "./db/open_database.ts";
import type {
  ResolvedCollection,
  ResolvedField,
  ResolvedIndex,
} from "./resolve.ts";

/** The metadata table. */
export const SCHEMA_TABLE = "_strata_schema";

/** What is remembered of a field. */
interface FieldSnapshot {
  type: string;
  kind: string;
  storage: string;
  columnType: string | null;
  required: boolean;
  target: string | null;
}

/** What is remembered of a collection. */
interface CollectionSnapshot {
  version: 1;
  fields: Record<string, FieldSnapshot>;
  indexes: ResolvedIndex[];
}

/** Options of {@link syncSchema}. */
export interface SyncOptions {
  /** Apply destructive changes (data in removed or changed columns is lost). */
  force?: boolean;
  /** The default content locale (translatability migrations use it). */
  defaultLocale: string;
}

type Step = (db: Kysely<any>) => Promise<void>;

function snapshotOf(collection: ResolvedCollection): CollectionSnapshot {
  const fields: Record<string, FieldSnapshot> = {};
  for (const field of collection.fieldList) {
    fields[field.name] = {
      type: field.type.name,
      kind: field.kind,
      storage: field.storage,
      columnType: field.columnType,
      required: isRequired(field),
      target: field.target ?? null,
    };
  }
  return { version: 1, fields, indexes: [...collection.indexes] };
}

function isRequired(field: ResolvedField): boolean {
  return !field.nullable && !field.hasDefault && field.storage !== "junction";
}

async function existingColumns(
  db: Kysely<any>,
  dialect: SqlDialect,
): Promise<Map<string, Set<string>>> {
  const rows = dialect === "postgres"
    ? await sql<
      { tbl: string; col: string }
    >`select table_name as tbl, column_name as col
        from information_schema.columns where table_schema = current_schema()`
      .execute(db)
    : await sql<
      { tbl: string; col: string }
    >`select m.name as tbl, p.name as col
        from sqlite_master m join pragma_table_info(m.name) p where m.type = 'table'`
      .execute(db);
  const tables = new Map<string, Set<string>>();
  for (const { tbl, col } of rows.rows) {
    let columns = tables.get(tbl);
    if (!columns) tables.set(tbl, columns = new Set());
    columns.add(col);
  }
  return tables;
}

async function isEmpty(db: Kysely<any>, table: string): Promise<boolean> {
  const rows = await db.selectFrom(table).select(sql.lit(1).as("one")).limit(1)
    .execute();
  return rows.length === 0;
}

/**
 * PostgreSQL compares and sorts text by the database's collation (a language's rules in
 * most installations), SQLite by code point. Every text column of the app's tables is set to
 * the "C" collation, so `order` and range filters answer alike on both databases. Runs
 * after the other steps, so new and existing tables alike are covered; a column already in
 * "C" is left alone, so only the first boot on an older database alters anything.
 */
async function useCodePointOrder(
  db: Kysely<any>,
  collections: ReadonlyMap<string, ResolvedCollection>,
): Promise<void> {
  const tables = new Set<string>();
  for (const collection of collections.values()) {
    tables.add(collection.table);
    if (collection.translationTable) tables.add(collection.translationTable);
    for (const field of collection.junctionFields) {
      tables.add(field.junctionTable!);
    }
  }
  // information_schema reports the database's default collation as null.
  const { rows } = await sql<{ tbl: string; col: string }>`
    select table_name as tbl, column_name as col from information_schema.columns
    where table_schema = current_schema() and data_type = 'text'
      and collation_name is distinct from 'C'`.execute(db);
  for (const { tbl, col } of rows) {
    if (!tables.has(tbl)) continue;
    // A column something else depends on (a view the app made over the table) cannot
    // change its collation: it keeps the database's, and the boot goes on.
    await sql`savepoint strata_collation`.execute(db);
    try {
      await sql`alter table ${sql.id(tbl)} alter column ${
        sql.id(col)
      } type text collate "C"`.execute(db);
      await sql`release savepoint strata_collation`.execute(db);
    } catch (error) {
      await sql`rollback to savepoint strata_collation`.execute(db);
      console.warn(
        `Strata: ${tbl}.${col} keeps the database's collation, so text there may sort ` +
          `differently from SQLite: ${(error as Error).message}`,
      );
    }
  }
}

function bigint(dialect: SqlDialect): string {
  return dialect === "postgres" ? "bigint" : "integer";
}

function createMainTable(
  collection: ResolvedCollection,
  dialect: SqlDialect,
): Step {
  return async (db) => {
    let builder = db.schema.createTable(collection.table)
      .addColumn("UUID", "text", (c) => c.primaryKey().notNull())
      .addColumn("_updatedAt", sql.raw(bigint(dialect)), (c) => c.notNull());
    for (const field of collection.columnFields) {
      builder = builder.addColumn(field.name, sql.raw(field.columnType!));
    }
    await builder.execute();
  };
}

function createTranslationTable(collection: ResolvedCollection): Step {
  return async (db) => {
    const table = collection.translationTable!;
    let builder = db.schema.createTable(table)
      .addColumn("record", "text", (c) => c.notNull())
      .addColumn("locale", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}__pk`, ["record", "locale"]);
    for (const field of collection.translatedFields) {
      builder = builder.addColumn(field.name, sql.raw(field.columnType!));
    }
    await builder.execute();
  };
}

function createJunctionTable(field: ResolvedField): Step {
  return async (db) => {
    const table = field.junctionTable!;
    await db.schema.createTable(table)
      .addColumn("owner", "text", (c) => c.notNull())
      .addColumn("target", "text", (c) => c.notNull())
      .addColumn("position", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}__pk`, ["owner", "position"])
      .execute();
    await db.schema.createIndex(`${table}__target__idx`).on(table)
      .column("target").execute();
  };
}

function tableOf(collection: ResolvedCollection, field: ResolvedField): string {
  return field.storage === "translation"
    ? collection.translationTable!
    : collection.table;
}

/** Fills null values of a (new or newly required) field with its default. */
function backfill(
  collection: ResolvedCollection,
  field: ResolvedField,
): Step {
  return async (db) => {
    if (!field.hasDefault) return;
    const table = tableOf(collection, field);
    if (typeof field.options.default !== "function") {
      await db.updateTable(table)
        .set({ [field.name]: field.toDb(field.defaultValue()) })
        .where(field.name, "is", null).execute();
      return;
    }
    const key = field.storage === "translation"
      ? ["record", "locale"]
      : ["UUID"];
    const rows = await db.selectFrom(table).select(key)
      .where(field.name, "is", null).execute();
    for (const row of rows) {
      let update = db.updateTable(table)
        .set({ [field.name]: field.toDb(field.defaultValue()) });
      for (const k of key) update = update.where(k, "=", row[k]);
      await update.execute();
    }
  };
}

function addColumn(collection: ResolvedCollection, field: ResolvedField): Step {
  return async (db) => {
    await db.schema.alterTable(tableOf(collection, field))
      .addColumn(field.name, sql.raw(field.columnType!)).execute();
  };
}

function dropColumn(table: string, column: string): Step {
  return async (db) => {
    await db.schema.alterTable(table).dropColumn(column).execute();
  };
}

function moveToTranslations(
  collection: ResolvedCollection,
  field: ResolvedField,
  locale: string,
): Step {
  return async (db) => {
    const tr = sql.table(collection.translationTable!);
    const column = sql.id(field.name);
    await sql`insert into ${tr} (${sql.id("record")}, ${
      sql.id("locale")
    }, ${column})
      select ${sql.id("UUID")}, ${locale}, ${column} from ${
      sql.table(collection.table)
    }
      where ${column} is not null
      on conflict (${sql.id("record")}, ${sql.id("locale")})
      do update set ${column} = excluded.${column}`.execute(db);
  };
}

function moveFromTranslations(
  collection: ResolvedCollection,
  field: ResolvedField,
  trTable: string,
  locale: string,
): Step {
  return async (db) => {
    const main = sql.table(collection.table);
    const column = sql.id(field.name);
    await sql`update ${main} set ${column} = (select t.${column} from ${
      sql.table(trTable)
    } as t where t.${sql.id("record")} = ${main}.${sql.id("UUID")} and t.${
      sql.id("locale")
    } = ${locale})`.execute(db);
  };
}

/**
 * Brings the database in line with `collections` (see the module documentation).
 * Throws an error listing every destructive change when `force` is not set; nothing is
 * applied then.
 *
 * @example
 * ```ts ignore
 * await syncSchema(db, "sqlite", collections, { defaultLocale: "en" });
 * ```
 */
export async function syncSchema(
  db: Kysely<any>,
  dialect: SqlDialect,
  collections: ReadonlyMap<string, ResolvedCollection>,
  options: SyncOptions,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (dialect === "postgres") {
      // Processes booting together sync one at a time.
      await sql`select pg_advisory_xact_lock(hashtext('strata_schema_sync:' || current_schema()))`
        .execute(trx);
    }
    await trx.schema.createTable(SCHEMA_TABLE).ifNotExists()
      .addColumn("collection", "text", (c) => c.primaryKey().notNull())
      .addColumn("snapshot", "text", (c) => c.notNull())
      .addColumn("syncedAt", sql.raw(bigint(dialect)), (c) => c.notNull())
      .execute();
    const stored = await trx.selectFrom(SCHEMA_TABLE)
      .select(["collection", "snapshot"]).execute() as {
        collection: string;
        snapshot: string;
      }[];
    const previous = new Map<string, CollectionSnapshot>(
      stored.map((r) => [r.collection, JSON.parse(r.snapshot)]),
    );
    const tables = await existingColumns(trx, dialect);
    const issues: string[] = [];
    const steps: Step[] = [];
    const dropIndexSteps: Step[] = [];
    for (const collection of collections.values()) {
      await planCollection(
        trx,
        collection,
        previous.get(collection.name),
        tables,
        options,
        dialect,
        issues,
        steps,
        dropIndexSteps,
      );
    }
    if (issues.length > 0 && !options.force) {
      throw new Error(issues.join("\n"));
    }
    for (const step of dropIndexSteps) await step(trx);
    for (const step of steps) await step(trx);
    if (dialect === "postgres") await useCodePointOrder(trx, collections);
    for (const collection of collections.values()) {
      for (const index of collection.indexes) {
        try {
          let builder = trx.schema.createIndex(index.name).ifNotExists()
            .on(index.table).columns([...index.columns]);
          if (index.unique) builder = builder.unique();
          await builder.execute();
        } catch (error) {
          if (!index.unique) throw error;
          throw new Error(
            `Cannot add the unique index over ${collection.name}.${
              index.columns.filter((c) => c !== "locale").join(", ")
            }: existing records hold duplicate values`,
            { cause: error },
          );
        }
      }
      const snapshot = JSON.stringify(snapshotOf(collection));
      const now = Date.now();
      await trx.insertInto(SCHEMA_TABLE)
        .values({ collection: collection.name, snapshot, syncedAt: now })
        .onConflict((oc) =>
          oc.column("collection").doUpdateSet({ snapshot, syncedAt: now })
        )
        .execute();
    }
  });
}

async function planCollection(
  db: Kysely<any>,
  collection: ResolvedCollection,
  previous: CollectionSnapshot | undefined,
  tables: ReadonlyMap<string, ReadonlySet<string>>,
  options: SyncOptions,
  dialect: SqlDialect,
  issues: string[],
  steps: Step[],
  dropIndexSteps: Step[],
): Promise<void> {
  const mainColumns = tables.get(collection.table);
  const trTable = collection.translationTable;
  const trColumns = trTable ? tables.get(trTable) : undefined;
  const refuse = (field: string, why: string) =>
    issues.push(
      `Schema change for ${collection.name}.${field} needs database.sync.force: ${why}`,
    );
  // Indexes that no longer exist in the definitions (or sit on a changed column) go first.
  const wanted = new Set(collection.indexes.map((i) => i.name));
  const changedColumns = new Set<string>();

  if (!mainColumns) {
    steps.push(createMainTable(collection, dialect));
  }
  if (trTable && !trColumns) steps.push(createTranslationTable(collection));
  for (const field of collection.junctionFields) {
    if (!tables.has(field.junctionTable!)) {
      steps.push(createJunctionTable(field));
    }
  }

  let empty: boolean | undefined;
  const tableIsEmpty = async () =>
    empty ??= mainColumns ? await isEmpty(db, collection.table) : true;

  for (const field of collection.fieldList) {
    if (field.storage === "junction") continue;
    const before = previous?.fields[field.name];
    const home = field.storage === "translation" ? trColumns : mainColumns;
    const homeExists = field.storage === "translation"
      ? trColumns !== undefined
      : mainColumns !== undefined;
    const present = home?.has(field.name) ?? false;
    if (
      before && before.storage !== field.storage &&
      before.storage !== "junction"
    ) {
      // Translatability changed: the value moves between tables.
      refuse(
        field.name,
        field.storage === "translation"
          ? "the field became translatable"
          : "the field is no longer translatable",
      );
      const oldTable = before.storage === "translation"
        ? `${collection.name}__translations`
        : collection.table;
      const oldPresent = tables.get(oldTable)?.has(field.name) ?? false;
      changedColumns.add(field.name);
      if (homeExists && !present) steps.push(addColumn(collection, field));
      if (oldPresent && before.kind === field.kind) {
        steps.push(
          field.storage === "translation"
            ? moveToTranslations(collection, field, options.defaultLocale)
            : moveFromTranslations(
              collection,
              field,
              oldTable,
              options.defaultLocale,
            ),
        );
      }
      if (oldPresent) steps.push(dropColumn(oldTable, field.name));
      steps.push(backfill(collection, field));
      continue;
    }
    if (!present) {
      if (
        homeExists && isRequired(field) && !(await tableIsEmpty())
      ) {
        refuse(field.name, "the new field is required and has no default");
      }
      if (homeExists) {
        steps.push(addColumn(collection, field));
        steps.push(backfill(collection, field));
      }
      continue;
    }
    if (!before) continue;
    if (before.kind !== field.kind || before.columnType !== field.columnType) {
      refuse(
        field.name,
        `the field changed type from ${before.type} to ${field.type.name}`,
      );
      changedColumns.add(field.name);
      const table = tableOf(collection, field);
      steps.push(dropColumn(table, field.name));
      steps.push(addColumn(collection, field));
      steps.push(backfill(collection, field));
    } else if (before.target !== (field.target ?? null)) {
      refuse(
        field.name,
        `the field now references ${field.target} instead of ${before.target}`,
      );
      changedColumns.add(field.name);
      const table = tableOf(collection, field);
      steps.push(dropColumn(table, field.name));
      steps.push(addColumn(collection, field));
    } else if (!before.required && isRequired(field)) {
      refuse(field.name, "the field became required without a default");
    } else if (!before.required && !field.nullable && field.hasDefault) {
      steps.push(backfill(collection, field));
    }
  }

  for (const field of collection.junctionFields) {
    const before = previous?.fields[field.name];
    if (before && before.storage !== "junction") {
      refuse(
        field.name,
        `the field changed type from ${before.type} to ${field.type.name}`,
      );
      const oldTable = before.storage === "translation"
        ? `${collection.name}__translations`
        : collection.table;
      if (tables.get(oldTable)?.has(field.name)) {
        changedColumns.add(field.name);
        steps.push(dropColumn(oldTable, field.name));
      }
    } else if (before && before.target !== (field.target ?? null)) {
      refuse(
        field.name,
        `the field now references ${field.target} instead of ${before.target}`,
      );
      steps.push(async (db) => {
        await db.deleteFrom(field.junctionTable!).execute();
      });
    }
  }

  for (const [name, before] of Object.entries(previous?.fields ?? {})) {
    if (collection.fields.has(name)) continue;
    if (before.storage === "junction") {
      const table = `${collection.name}__${name}`;
      if (!tables.has(table)) continue;
      refuse(name, "the field was removed");
      steps.push(async (db) => {
        await db.schema.dropTable(table).ifExists().execute();
      });
      continue;
    }
    const table = before.storage === "translation"
      ? `${collection.name}__translations`
      : collection.table;
    if (!tables.get(table)?.has(name)) continue;
    refuse(name, "the field was removed");
    changedColumns.add(name);
    steps.push(dropColumn(table, name));
  }

  for (const index of previous?.indexes ?? []) {
    const touchesChanged = index.columns.some((c) => changedColumns.has(c));
    if (wanted.has(index.name) && !touchesChanged) continue;
    dropIndexSteps.push(async (db) => {
      await db.schema.dropIndex(index.name).ifExists().execute();
    });
  }
}
