// The one seek-paging engine: a list ordered by one key (id unless said otherwise), read in
// pages strictly after (or before) a key. The same key is the REST `after` and the Relay cursor.
// The administration filter of the em applies to every query (scopedEm), so a limited credential
// pages only through its own administrations.
import { ReferenceKind, type EntityMetadata, type EntityName, type FilterOptions, type FilterQuery, type RawQueryFragment } from '@mikro-orm/core';
import { arrayRows } from './bound-sql.ts';
import { defaultSelection, eagerFields } from './eager-fields.ts';
import { isUuid } from './ids.ts';
import type { Em } from './orm.ts';
import { feedHorizon, type Feed } from './feed-horizon.ts';

export interface SeekRange {
  after?: string | null;
  before?: string | null;
  limit: number;
  /** Descending (Relay `last`): the rows come last-first. */
  inverted?: boolean;
}

/** Marks plain read data with the entity it was read from (GraphQL tells node types apart by it). */
export const DATA_OF = Symbol('dataOf');

export function isDataOf(value: unknown, entityName: string): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[DATA_OF] === entityName;
}

type Row = Record<string, any>;
/** Find options of a list whose entity is only known at run time (the key is a property name). */

export interface SeekListOptions<E extends object, T> {
  entity: EntityName<E>;
  where?: FilterQuery<E>;
  /**
   * What the caller may see of an entity without the administration filter (its scope is a
   * condition of `where` too): `has()`, which leaves the list's filters out, still applies it.
   */
  scope?: FilterQuery<E>;
  /** Entity property the list is ordered and paged by. */
  key?: string;
  /** Which values can name an item (ids are UUIDs); others are refused before any query. */
  isKey?: (value: string) => boolean;
  /**
   * Rows straight from the query builder: no managed entities, no identity map; `join` adds
   * to-one relations (e.g. an administration's seller) and `map` shapes a row.
   */
  join?: string[];
  /** Properties read; default: every stored one that loading the entity reads (lazy ones, e.g. secrets, left out). */
  fields?: (string | RawQueryFragment)[];
  /** Shapes a row; with `plainColumns`, the columns that are no property (SQL `fields` reads under a name of its own) come second. */
  map?: (row: Row, answered: Row) => T;
  /**
   * The rows as the database answers them (column names; timestamps as text, `platform.parseDate`),
   * not mapped by the ORM, for `map` to shape: for the lists read in long pages (an export reads a
   * thousand rows a page), where the ORM's mapping of each row and of its joined relations costs
   * more than the query. `fields` may then alias columns (`'e.id as id'`) and read SQL (raw()).
   */
  rawRows?: boolean;
  /**
   * The rows as the database answers them, turned into the rows the ORM's mapping would give
   * (property names, timestamps as Date: `arrayRowReader`, rows read as arrays) before `map`: for the entities
   * whose properties need no other conversion, read in long pages. Not with `join`; `fields`, when
   * given, names properties, or reads SQL (raw()) aliased as a property's column; a property not
   * read is left out of the row.
   */
  plainColumns?: boolean;
  /** To-one relations joined but not selected (aliased by their name), for `fields` to read single columns of. */
  joinColumns?: string[];
  /** Completes a page of plain rows with one more query per page (e.g. a box's totals). */
  enrich?: (rows: Row[]) => Promise<T[]>;
  /**
   * A fixed query for `all()` returning rows already shaped (the hottest unpaged lists: no query
   * builder per request). It must apply the em's administration scope itself.
   */
  all?: (em: Em) => Promise<Row[]>;
  /**
   * A property put before the key in the order of the pages (`page()`, `all()`): one that `where`
   * restricts to one value, so that an index on it and the key reads each page in key order.
   */
  orderFirst?: string;
  /** The em's filters as the pages apply them (MikroORM's FilterOptions: `{ name: false }` leaves one out, `where` then doing its part). */
  filters?: FilterOptions;
  /** A feed whose rows commit out of id order (feed-horizon.ts): each page ends below its horizon. The key is the id. */
  feed?: Feed;
}

export class SeekList<T> {
  readonly key: string;
  private readonly entityName: string;
  private readonly em: Em;
  private readonly options: SeekListOptions<any, T>;

  private readonly columns: boolean;

  constructor(em: Em, options: SeekListOptions<any, T>) {
    this.em = em;
    this.options = options;
    if (options.plainColumns) {
      if (options.join || options.rawRows) throw new Error('plainColumns reads the entity\'s columns, without join or rawRows');
      assertPlainColumns(em, options.entity);
    }
    this.columns = options.plainColumns === true;
    this.key = options.key ?? 'id';
    if (options.feed && this.key !== 'id') throw new Error('a feed is paged by its id');
    this.entityName = em.getMetadata(options.entity).className;
  }

  isKey(value: string): boolean {
    return (this.options.isKey ?? (this.key === 'id' ? isUuid : () => true))(value);
  }

  keyOf(item: T): string {
    return String((item as Row)[this.key]);
  }

  /** Whether `value` names an item of the resource in the caller's scope (the list's filters do not apply: decisions.md). */
  async has(value: string): Promise<boolean> {
    if (!this.isKey(value)) return false;
    const named = { [this.key]: value };
    const qb = this.em.createQueryBuilder(this.options.entity, 'e').select(this.key)
      .where(this.options.scope ? { $and: [named, this.options.scope] } : named).limit(1);
    // A list that gives its scope as a condition may leave the entity's own filter out (scopedReadOn).
    await qb.applyFilters(this.options.scope ? this.options.filters : undefined);
    return (await qb.execute('all', false)).length > 0;
  }

  /**
   * The key of the first item created after `moment`, or null. A feed's below its horizon, as a
   * page's: the key is a poller's cursor, and a row of a smaller id could still commit behind it.
   */
  async firstCreatedAfter(moment: Date): Promise<string | null> {
    const horizon = await this.horizon();
    const qb = this.em.createQueryBuilder(this.options.entity, 'e').select(this.key)
      .where(this.where({ createdAt: { $gt: moment }, ...(horizon === null ? {} : { [this.key]: { $lt: horizon } }) }))
      .orderBy({ [this.key]: 'asc' }).limit(1);
    await qb.applyFilters(this.options.filters);
    const rows: Row[] = await qb.execute('all', true);
    return rows.length ? String(rows[0][this.key]) : null;
  }

  /** One page: at most `limit` items after/before the bounds, in query order. */
  async page(range: SeekRange): Promise<T[]> {
    const bounds: Record<string, string> = {};
    if (range.after) bounds.$gt = range.after;
    let before = range.before?.toLowerCase() ?? null;
    const horizon = await this.horizon();
    if (horizon !== null && (before === null || horizon < before)) before = horizon;
    if (before) bounds.$lt = before;
    return this.read(Object.keys(bounds).length ? { [this.key]: bounds } : {}, range.inverted ? 'desc' : 'asc', range.limit);
  }

  /** Every item, for the lists that are not paged. */
  async all(): Promise<T[]> {
    if (!this.options.all) return this.read({}, 'asc');
    return (await this.options.all(this.em)).map((row) => this.marked(row));
  }

  /** A feed's horizon (feed-horizon.ts), read before the statement it bounds; null for a list that is no feed. */
  private async horizon(): Promise<string | null> {
    return this.options.feed ? feedHorizon(this.em, this.options.feed) : null;
  }

  private marked(item: Row): T {
    Object.defineProperty(item, DATA_OF, { value: this.entityName });
    return item as T;
  }

  private where(extra: Row): Row {
    return { ...(this.options.where as Row | undefined), ...extra };
  }

  private async read(extra: Row, direction: 'asc' | 'desc', limit?: number): Promise<T[]> {
    const { options } = this;
    const fields = options.fields ?? defaultSelection(this.em.getMetadata(options.entity as EntityName<any>));
    const qb = this.em.createQueryBuilder(options.entity, 'e');
    // Joined before the fields, so that `relation.property` names the join's alias.
    for (const relation of options.joinColumns ?? []) qb.leftJoin(`e.${relation}`, relation);
    qb.select(fields).where(this.where(extra)).orderBy({ ...(options.orderFirst ? { [options.orderFirst]: direction } : {}), [this.key]: direction });
    for (const relation of options.join ?? []) qb.leftJoinAndSelect(`e.${relation}`, relation);
    if (limit !== undefined) qb.limit(limit);
    await qb.applyFilters(options.filters);
    let items: Row[];
    if (this.columns) {
      // The page's statement as the query builder writes it; its rows as arrays (no object per row).
      const rows = await arrayRows(this.em, qb.getFormattedQuery());
      const read = arrayRowReader(this.em, options.entity, rows.columns);
      items = rows.map((values) => {
        const [properties, others] = read(values);
        return options.map ? options.map(properties, others) as Row : properties;
      });
    } else {
      const rows: Row[] = await qb.execute('all', !options.rawRows);
      items = options.map ? rows.map((row) => options.map!(row, row) as Row) : rows;
    }
    return options.enrich ? (await options.enrich(items)).map((item) => this.marked(item as Row)) : items.map((item) => this.marked(item));
  }
}

interface ColumnPlan { names: Map<string, { name: string; date: boolean }>; parseDate: (value: unknown) => unknown }

const columnPlans = new WeakMap<EntityMetadata<any>, ColumnPlan>();

/** Column types whose value node-postgres answers as the ORM's mapping would (no conversion but timestamps). */
const AS_ANSWERED = new Set(['string', 'number', 'boolean', 'object', 'any']);
/** The ORM types whose conversion to JS is nothing, or a timestamp's parseDate (not a date: node-postgres answers a Date, the ORM a string). */
const PLAIN_TYPES = new Set(['StringType', 'TextType', 'UuidType', 'EnumType', 'IntegerType', 'SmallIntType', 'TinyIntType', 'MediumIntType',
  'BooleanType', 'JsonType', 'DateTimeType', 'DecimalType', 'FloatType', 'DoubleType', 'CharacterType']);

/** A property's JS type as the database answers it: citext (case-insensitive identifiers) is text. */
const answeredType = (prop: EntityMetadata<any>['properties'][string]) => (prop.columnTypes?.[0] === 'citext' ? 'string' : prop.runtimeType);

/**
 * Each column of an entity's default selection: the property it is (a to-one reference as its
 * key) and whether it is a timestamp (`platform.parseDate`); built once per entity. An entity with a
 * property that would need another conversion (a custom type, a bigint, a composite key) is refused.
 */
function columnPlan(em: Em, entity: EntityName<any>): ColumnPlan {
  const meta = em.getMetadata(entity);
  const known = columnPlans.get(meta);
  if (known) return known;
  const platform = em.getPlatform();
  const parseDate = (value: unknown) => (value === null || value === undefined || value instanceof Date ? value : platform.parseDate(value as string));
  const names = new Map<string, { name: string; date: boolean }>();
  for (const name of eagerFields(meta)) {
    const prop = meta.properties[name];
    if (prop.fieldNames?.length !== 1) throw new Error(`${meta.className}.${name}: not one column`);
    const column = prop.fieldNames[0];
    if (prop.kind !== ReferenceKind.SCALAR) {
      const target = prop.targetMeta!;
      if (target.primaryKeys.length !== 1 || !AS_ANSWERED.has(answeredType(target.properties[target.primaryKeys[0]]))) {
        throw new Error(`${meta.className}.${name}: a reference whose key needs a conversion`);
      }
      names.set(column, { name, date: false });
      continue;
    }
    const typeName = prop.customType?.constructor.name;
    const date = prop.runtimeType === 'Date';
    if ((typeName && !PLAIN_TYPES.has(typeName)) || (!date && !AS_ANSWERED.has(answeredType(prop)))) {
      throw new Error(`${meta.className}.${name}: ${typeName ?? prop.runtimeType} needs the ORM's conversion`);
    }
    names.set(column, { name, date });
  }
  const plan = { names, parseDate };
  columnPlans.set(meta, plan);
  return plan;
}

/**
 * Rows as the database answers them, arrays of the values of `columns` (bound-sql.ts `arrayRows`),
 * as the rows the query builder's mapping gives for the entity: property names, timestamps as Date
 * (`platform.parseDate`), a to-one reference as its key; and, apart, the columns that are no property
 * (SQL the read selects under a name of its own).
 */
export function arrayRowReader(em: Em, entity: EntityName<any>, columns: readonly string[]): (values: readonly unknown[]) => [Row, Row] {
  const { names, parseDate } = columnPlan(em, entity);
  const steps = columns.map((column) => names.get(column));
  return (values) => {
    const properties: Row = {};
    const others: Row = {};
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i];
      if (step === undefined) others[columns[i]] = values[i];
      else properties[step.name] = step.date ? parseDate(values[i]) : values[i];
    }
    return [properties, others];
  };
}

/** Checks at construction that an entity's columns read without the ORM's conversion (columnPlan). */
export function assertPlainColumns(em: Em, entity: EntityName<any>): void {
  columnPlan(em, entity);
}
