// What every contract and link entity of the three families can tell and refuse, one meaning each:
//   contract.isValidAt(at)   the contract alone: not defunct and `at` in [valid_from, valid_until)
//   link.isValidAt(at)       the link alone: not defunct and `at` in its own interval (valid_from
//                            null defers to the contract's), whatever the contract's validity
//   link.isUsableAt(at)      the link and its contract both valid at `at` (may it carry a session)
//   assertChangeable()       the family's own error code when the record is defunct
// The rules themselves are src/platform/validity.ts; these classes only put them on the entities:
//   export class ReimbursementLink extends linkEntity(ReimbursementLinkSchema.class, (link) => link.arrangement, DEFUNCT) {}
import type { ErrorCode } from '../platform/error-codes.ts';
import { DomainError } from '../platform/errors.ts';
import type { FieldPath } from '../platform/field-path.ts';
import { isContractValidAt, isLinkCurrentlyValid, isLinkOwnValidAt, isLinkUsableAt, linkInterval } from '../platform/validity.ts';

/** A defunct record's answer to a change: the family's code and message. */
export interface DefunctRefusal {
  code: ErrorCode;
  message: string;
}

export interface ContractRow {
  validFrom: Date;
  validUntil?: Date | null;
  defunct: boolean;
}

interface LinkRow {
  validFrom?: Date | null;
  validUntil?: Date | null;
  defunct: boolean;
}

type EntityBase<T> = abstract new (...args: any[]) => T;

/**
 * MikroORM reads a parent class of another name as an entity of its own (inheritance); these
 * method classes carry the name of the generated class they extend, as that class does.
 */
function asEntityBase<C extends abstract new (...args: any[]) => unknown>(methods: C, base: { name: string }): C {
  Object.defineProperty(methods, 'name', { value: base.name });
  return methods;
}

function refuseDefunct(record: { defunct: boolean }, refusal: DefunctRefusal, path?: FieldPath): void {
  if (record.defunct) throw new DomainError(refusal.code, refusal.message, path ? { path } : {});
}

/** The methods of a contract entity (subscription, arrangement) on top of its defineEntity class. */
export function contractEntity<B extends EntityBase<ContractRow>>(Base: B, defunct: DefunctRefusal) {
  abstract class Contract extends Base {
    /** The contract alone valid at `at`: not defunct, `at` in its interval. */
    isValidAt(at: Date): boolean {
      return isContractValidAt(this, at);
    }

    /** Refuses a change of a defunct contract (at `path` when given). */
    assertChangeable(path?: FieldPath): void {
      refuseDefunct(this, defunct, path);
    }
  }
  return asEntityBase(Contract, Base);
}

/**
 * The methods of a link entity on top of its defineEntity class; `contractOf` answers its contract
 * (which must be loaded when they are called).
 */
export function linkEntity<B extends EntityBase<LinkRow>>(Base: B, contractOf: (link: InstanceType<B>) => ContractRow, defunct: DefunctRefusal) {
  abstract class Link extends Base {
    /** The start that counts: the link's own, else the contract's. */
    effectiveFrom(): Date {
      return linkInterval(this, this.contractOfLink()).validFrom;
    }

    /** The link alone valid at `at`, whatever its contract's validity. */
    isValidAt(at: Date): boolean {
      return isLinkOwnValidAt(this, this.contractOfLink(), at);
    }

    /** The link and its contract both valid at `at`. */
    isUsableAt(at: Date): boolean {
      return isLinkUsableAt(this, this.contractOfLink(), at);
    }

    /** isUsableAt now (validityNow()): REST `is_currently_valid`, GraphQL `isCurrentlyValid`. */
    isCurrentlyUsable(): boolean {
      return isLinkCurrentlyValid(this, this.contractOfLink());
    }

    /** Refuses a change of a defunct link (at `path` when given). */
    assertChangeable(path?: FieldPath): void {
      refuseDefunct(this, defunct, path);
    }

    private contractOfLink(): ContractRow {
      return contractOf(this as unknown as InstanceType<B>);
    }
  }
  return asEntityBase(Link, Base);
}
