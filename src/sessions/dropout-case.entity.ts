import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { DomainError } from '../platform/errors.ts';
import { createdAtProperty, idProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { Administration } from '../parties/administration.entity.ts';
import { recordsEvents } from '../events/event-kinds.ts';

export const DROPOUT_STATUSES = ['open', 'resolved'] as const;
/** msp: pricing for the driver's side; cpo: matching and reimbursement of a CPO session. */
export const DROPOUT_SIDES = ['msp', 'cpo'] as const;
export type DropoutSide = (typeof DROPOUT_SIDES)[number];
export const REPROCESS_INSTRUCTIONS = ['retry', 'bypass', 'discard'] as const;
export type ReprocessInstruction = (typeof REPROCESS_INSTRUCTIONS)[number];

/**
 * Sessions that failed for the same reason with similar properties (`groupKey`: reason,
 * administration, detail). While a case is open, `openKey` holds the group key, so failing
 * sessions join it; a resolved case is kept and a new failure opens a new case.
 */
export const DropoutCaseSchema = defineEntity({
  name: 'DropoutCase',
  tableName: 'msp_dropout_case',
  filters: adminScopeFilter('admin'),
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(Administration).nullable().index(),
    side: p.enum(DROPOUT_SIDES).default('msp'),
    reason: p.string(),
    /** CPO cases: the EVSE the sessions name. */
    evseUid: p.string().columnType('citext').nullable(),
    groupKey: p.string(),
    openKey: p.string().nullable().unique(),
    message: p.text(),
    status: p.enum(DROPOUT_STATUSES).default('open'),
    sessionCount: p.integer().default(0),
    resolution: p.enum(REPROCESS_INSTRUCTIONS).nullable(),
    resolvedAt: p.datetime().nullable(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class DropoutCase extends DropoutCaseSchema.class {
  /** Reprocessing resolves the case; a resolved case stays as it is. */
  resolve(instruction: ReprocessInstruction, at: Date): void {
    if (this.status !== 'open') throw new DomainError('dropout_case_resolved', 'the drop-out case is resolved already', { path: ['instruction'] });
    this.status = 'resolved';
    this.openKey = null;
    this.resolution = instruction;
    this.resolvedAt = at;
  }
}
DropoutCaseSchema.setClass(DropoutCase);
recordsEvents<DropoutCase>(DropoutCase, (c) => (c.side === 'cpo' ? 'cpo_dropout_case' : 'msp_dropout_case'));
