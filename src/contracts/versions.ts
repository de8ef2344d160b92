// "The version in force at a moment", one rule for every record that holds from its valid_from
// until the next one starts (rate plan versions, CPO subscription plan versions, reimbursement
// calculation inputs): the one with the latest valid_from not after the moment. In memory, as a
// find in the database, and as the SQL of a period's version.
import type { EntityName, FilterQuery, FindOneOptions } from '@mikro-orm/core';
import type { Em } from '../platform/orm.ts';

export interface Versioned {
  validFrom: Date;
}

/**
 * Per key, the version in force at `at` (undefined for a key with none yet), in the order the keys
 * first have one in `versions`; of two with the same valid_from, the first.
 */
export function versionsAtByKey<V extends Versioned>(versions: Iterable<V>, keyOf: (version: V) => string, at: Date): Map<string, V> {
  const latest = new Map<string, V>();
  for (const version of versions) {
    if (version.validFrom.getTime() > at.getTime()) continue;
    const key = keyOf(version);
    const current = latest.get(key);
    if (!current || current.validFrom.getTime() < version.validFrom.getTime()) latest.set(key, version);
  }
  return latest;
}

/** The version in force at `at` among `versions` (in any order), undefined when none has started. */
export function versionAt<V extends Versioned>(versions: Iterable<V>, at: Date): V | undefined {
  return versionsAtByKey(versions, () => '', at).get('');
}

/** The version in force at `at` of the rows `where` names (one owner's versions), read from the database. */
export function findVersionAt<V extends Versioned & object>(
  em: Em, entity: EntityName<V>, where: FilterQuery<V>, at: Date, options: { filters?: boolean } = {},
): Promise<V | null> {
  return em.findOne(entity, { $and: [where, { validFrom: { $lte: at } }] } as FilterQuery<V>, { ...options, orderBy: { validFrom: 'desc' } as FindOneOptions<V>['orderBy'] });
}

/**
 * SQL of the version for a period (recurring costs billed per invoicing period): of the versions `v`
 * starting before the period's end, the one in force at the period's start, else the first one
 * starting within the period. The condition and order of a lateral subquery over `v`
 * (`... where v.plan_id = p.id and ${VERSION_FOR_PERIOD_SQL}`); parameters: the period's until,
 * then its from twice.
 */
export const VERSION_FOR_PERIOD_SQL = 'v.valid_from < ? order by (v.valid_from <= ?) desc, case when v.valid_from <= ? then v.valid_from end desc nulls last, v.valid_from limit 1';
