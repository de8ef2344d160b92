import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { DomainError } from '../platform/errors.ts';
import { createdAtProperty, idProperty, identifierProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { intervalsOverlap } from '../platform/validity.ts';
import { Administration } from './administration.entity.ts';
import { Customer } from './customer.entity.ts';
import { recordsEvents } from '../events/event-kinds.ts';

export const DirectDebitMandateSchema = defineEntity({
  name: 'DirectDebitMandate',
  tableName: 'direct_debit_mandate',
  filters: adminScopeFilter('admin'),
  properties: {
    id: idProperty(),
    customer: () => p.manyToOne(Customer).index(),
    admin: () => p.manyToOne(Administration),
    bankAccountName: p.string(),
    iban: p.string().length(34),
    bic: p.string().length(11).nullable(),
    mandateReference: p.string().nullable(),
    signedAt: p.datetime().nullable(),
    validFrom: p.datetime(),
    validUntil: p.datetime().nullable(),
    defunct: p.boolean().default(false),
    externalReference: identifierProperty().nullable().unique(),
    externalUpdatedAt: p.datetime().nullable(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class DirectDebitMandate extends DirectDebitMandateSchema.class {
  markDefunct(): void {
    this.defunct = true;
  }

  /** Validity is [valid_from, valid_until). */
  overlaps(from: Date, until: Date | null | undefined): boolean {
    return !this.defunct && intervalsOverlap(this, { validFrom: from, validUntil: until });
  }

  /** Ends this mandate where a newer one starts; one that would be left empty becomes defunct. */
  yieldTo(newFrom: Date): void {
    if (this.defunct) throw new DomainError('mandate_defunct', 'a defunct mandate cannot be changed');
    if (this.validFrom.getTime() < newFrom.getTime()) this.validUntil = newFrom;
    else this.markDefunct();
  }
}
DirectDebitMandateSchema.setClass(DirectDebitMandate);
recordsEvents(DirectDebitMandate, 'direct_debit_mandate');
