// The one seek-paging engine: a list ordered by one key (id unless said otherwise), read in
// pages strictly after (or before) a key. The same key is the REST `after` and the Relay cursor.
// The administration filter of the em applies to every query (scopedEm), so a limited credential
// pages only through its own administrations.
import type { EntityName, FilterQuery, RawQueryFragment } from '@mikro-orm/core';
import { defaultSelection } from './eager-fields.ts';
import { isUuid } from './ids.ts';
import type { Em } from './orm.ts';

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
  map?: (row: Row) => T;
  /**
   * The rows as the database answers them (column names; timestamps as text, `platform.parseDate`),
   * not mapped by the ORM, for `map` to shape: for the lists read in long pages (an export reads a
   * thousand rows a page), where the ORM's mapping of each row and of its joined relations costs
   * more than the query. `fields` may then alias columns (`'e.id as id'`) and read SQL (raw()).
   */
  rawRows?: boolean;
  /** To-one relations joined but not selected (aliased by their name), for `fields` to read single columns of. */
  joinColumns?: string[];
  /** Completes a page of plain rows with one more query per page (e.g. a box's totals). */
  enrich?: (rows: Row[]) => Promise<T[]>;
  /**
   * A fixed query for `all()` returning rows already shaped (the hottest unpaged lists: no query
   * builder per request). It must apply the em's administration scope itself.
   */
  all?: (em: Em) => Promise<Row[]>;
}

export class SeekList<T> {
  readonly key: string;
  private readonly entityName: string;
  private readonly em: Em;
  private readonly options: SeekListOptions<any, T>;

  constructor(em: Em, options: SeekListOptions<any, T>) {
    this.em = em;
    this.options = options;
    this.key = options.key ?? 'id';
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
    const qb = this.em.createQueryBuilder(this.options.entity, 'e').select(this.key).where({ [this.key]: value }).limit(1);
    await qb.applyFilters();
    return (await qb.execute('all', false)).length > 0;
  }

  /** The key of the first item created after `moment`, or null. */
  async firstCreatedAfter(moment: Date): Promise<string | null> {
    const qb = this.em.createQueryBuilder(this.options.entity, 'e').select(this.key)
      .where(this.where({ createdAt: { $gt: moment } })).orderBy({ [this.key]: 'asc' }).limit(1);
    await qb.applyFilters();
    const rows: Row[] = await qb.execute('all', true);
    return rows.length ? String(rows[0][this.key]) : null;
  }

  /** One page: at most `limit` items after/before the bounds, in query order. */
  page(range: SeekRange): Promise<T[]> {
    const bounds: Record<string, string> = {};
    if (range.after) bounds.$gt = range.after;
    if (range.before) bounds.$lt = range.before;
    return this.read(Object.keys(bounds).length ? { [this.key]: bounds } : {}, range.inverted ? 'desc' : 'asc', range.limit);
  }

  /** Every item, for the lists that are not paged. */
  async all(): Promise<T[]> {
    if (!this.options.all) return this.read({}, 'asc');
    return (await this.options.all(this.em)).map((row) => this.marked(row));
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
    qb.select(fields).where(this.where(extra)).orderBy({ [this.key]: direction });
    for (const relation of options.join ?? []) qb.leftJoinAndSelect(`e.${relation}`, relation);
    if (limit !== undefined) qb.limit(limit);
    await qb.applyFilters();
    const rows: Row[] = await qb.execute('all', !options.rawRows);
    const items = rows.map((row) => (options.map ? options.map(row) as Row : row));
    return options.enrich ? (await options.enrich(items)).map((item) => this.marked(item as Row)) : items.map((item) => this.marked(item));
  }
}
