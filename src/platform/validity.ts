// The one validity rule: a record is valid in the half-open interval [valid_from, valid_until).
// valid_from is inclusive, valid_until exclusive; valid_until null is open-ended. Intervals that
// touch (one's valid_until equal to the other's valid_from) do not overlap: a seamless hand-over.
// In memory a null valid_from means "since always"; where it defers to a parent (token links,
// reimbursement links) the caller passes the effective start. The SQL side is MikroORM filter
// objects over the properties `validFrom` and `validUntil`; `defunct` is not part of the rule.
// A contract (subscription, arrangement, agreement, authorization) is valid at a moment when it is
// not defunct and the moment lies in its interval; "currently valid" (REST `is_currently_valid`,
// `is_valid`; GraphQL `isCurrentlyValid`, `isValid`) is that at validityNow(), for both transports.

import { InvalidInputError, type ErrorDetail } from './errors.ts';
import type { FieldPath } from './field-path.ts';

export interface Validity {
  /** null or absent: no lower bound. */
  validFrom?: Date | null;
  /** null or absent: open-ended. */
  validUntil?: Date | null;
}

export function isValidAt(interval: Validity, at: Date): boolean {
  const t = at.getTime();
  return (!interval.validFrom || interval.validFrom.getTime() <= t) && (!interval.validUntil || t < interval.validUntil.getTime());
}

let pinnedNow: Date | null = null;

/**
 * "Now" of every currently-valid answer, REST and GraphQL alike: the clock, unless a test pinned
 * it (pinValidityNowForTests) to hit a bound exactly.
 */
export function validityNow(): Date {
  return pinnedNow ? new Date(pinnedNow.getTime()) : new Date();
}

/** Tests only: every currently-valid answer is given at `at` until unpinned with null. */
export function pinValidityNowForTests(at: Date | null): void {
  pinnedNow = at ? new Date(at.getTime()) : null;
}

/** Where and how an unordered pair of bounds is told: `valid_until` after `valid_from` unless said otherwise. */
export interface BoundsOrder {
  /** default `['valid_until']` */
  path?: FieldPath;
  /** default `valid_until must be after valid_from` */
  message?: string;
}

/**
 * The one ordering check of two bounds (validity, publishing windows): the end after the start when
 * both are given. Null when they are ordered, else the failure to report (for use cases that
 * collect every failure before answering).
 */
export function boundsOrderFailure(from: Date | null | undefined, until: Date | null | undefined, order: BoundsOrder = {}): ErrorDetail | null {
  if (!from || !until || until.getTime() > from.getTime()) return null;
  return { path: order.path ?? ['valid_until'], message: order.message ?? 'valid_until must be after valid_from' };
}

/** The same check, thrown: 400 `invalid_input` at `valid_until` (or the path given). */
export function assertValidityOrdered(from: Date | null | undefined, until: Date | null | undefined, order: BoundsOrder = {}): void {
  const failure = boundsOrderFailure(from, until, order);
  if (failure) throw new InvalidInputError(failure.message, { path: failure.path });
}

type Contract = Validity & { defunct: boolean };

/** A contract (subscription, arrangement, agreement, authorization) valid at `at`: not defunct, `at` in its interval. */
export function isContractValidAt(contract: Contract, at: Date): boolean {
  return !contract.defunct && isValidAt(contract, at);
}

/** A link's own interval: from its own valid_from, else the contract's, until its valid_until. */
export function linkInterval(link: Validity, contract: { validFrom: Date }): { validFrom: Date; validUntil: Date | null } {
  return { validFrom: link.validFrom ?? contract.validFrom, validUntil: link.validUntil ?? null };
}

/** The link alone valid at `at` (not defunct, in its own interval), whatever its contract's validity. */
export function isLinkOwnValidAt(link: Contract, contract: { validFrom: Date }, at: Date): boolean {
  return !link.defunct && isValidAt(linkInterval(link, contract), at);
}

/**
 * A link of a contract (token link, EVSE reimbursement or subscription link) usable at `at`: the
 * link from its own valid_from (else the contract's) and the contract are both valid and not defunct.
 * Two names, two meanings: "valid" is a record alone (isLinkOwnValidAt, isContractValidAt),
 * "usable" a link and its contract.
 */
export function isLinkUsableAt(link: Contract, contract: Contract & { validFrom: Date }, at: Date): boolean {
  return isLinkOwnValidAt(link, contract, at) && isContractValidAt(contract, at);
}

/** REST `is_currently_valid` / `is_valid`, GraphQL `isCurrentlyValid` / `isValid` of a contract. */
export function isCurrentlyValid(contract: Contract): boolean {
  return isContractValidAt(contract, validityNow());
}

/** The same of a link: it and its contract usable now (isLinkUsableAt at validityNow()). */
export function isLinkCurrentlyValid(link: Contract, contract: Contract & { validFrom: Date }): boolean {
  return isLinkUsableAt(link, contract, validityNow());
}

export function intervalsOverlap(a: Validity, b: Validity): boolean {
  const aStartsBeforeBEnds = !a.validFrom || !b.validUntil || a.validFrom.getTime() < b.validUntil.getTime();
  const bStartsBeforeAEnds = !b.validFrom || !a.validUntil || b.validFrom.getTime() < a.validUntil.getTime();
  return aStartsBeforeBEnds && bStartsBeforeAEnds;
}

const untilAfter = (at: Date) => ({ $or: [{ validUntil: null }, { validUntil: { $gt: at } }] });

/**
 * Rows valid at `at` (valid_from NOT NULL). Spread it into a where without an `$or` of its own,
 * or put it in an `$and` list.
 */
export function validAt(at: Date) {
  return { validFrom: { $lte: at }, ...untilAfter(at) };
}

/** Rows valid at `at` where valid_from may be null (no lower bound). */
export function validAtOpenStart(at: Date) {
  return { $and: [{ $or: [{ validFrom: null }, { validFrom: { $lte: at } }] }, untilAfter(at)] };
}

/** Rows not valid at `at`: not yet started or already ended (valid_from NOT NULL). */
export function notValidAt(at: Date) {
  return { $or: [{ validFrom: { $gt: at } }, { validUntil: { $lte: at } }] };
}

/** Rows whose validity overlaps [from, until) (valid_from NOT NULL; `until` null: open-ended). */
export function overlapping(from: Date, until: Date | null | undefined) {
  return { ...(until ? { validFrom: { $lt: until } } : {}), ...untilAfter(from) };
}
