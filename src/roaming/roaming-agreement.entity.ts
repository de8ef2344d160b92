import { defineEntity, p } from '@mikro-orm/core';
import { createdAtProperty, idProperty, identifierProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { isContractValidAt } from '../platform/validity.ts';
import { RoamingPartner } from '../parties/roaming-partner.entity.ts';
import { VAT_KINDS } from '../pricing/vat-rate.entity.ts';
import { RoamingConnection } from './roaming-connection.entity.ts';
import { recordsEvents } from '../events/event-kinds.ts';

/** `msp`: we are the MSP, the partner the CPO (its sessions cost us); `cpo`: we are the CPO, the partner the MSP. */
export const AGREEMENT_ROLES = ['msp', 'cpo'] as const;
export type AgreementRole = (typeof AGREEMENT_ROLES)[number];

/** A contract over a locally owned connection with one partner, valid in [valid_from, valid_until). Shared by all administrations. */
export const RoamingAgreementSchema = defineEntity({
  name: 'RoamingAgreement',
  tableName: 'roaming_agreement',
  properties: {
    id: idProperty(),
    connection: () => p.manyToOne(RoamingConnection).index(),
    partner: () => p.manyToOne(RoamingPartner).index(),
    /** Our role in the agreement. */
    role: p.enum(AGREEMENT_ROLES),
    validFrom: p.datetime(),
    validUntil: p.datetime().nullable(),
    defunct: p.boolean().default(false),
    /** The rate plan of what the CPO charges (optional: else the session's tariff or reported amount). */
    ratePlanId: p.uuid().nullable(),
    vatKind: p.enum(VAT_KINDS).default('standard'),
    externalReference: identifierProperty().nullable().unique(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class RoamingAgreement extends RoamingAgreementSchema.class {
  isValidAt(at: Date): boolean {
    return isContractValidAt(this, at);
  }
}
RoamingAgreementSchema.setClass(RoamingAgreement);
recordsEvents<RoamingAgreement>(RoamingAgreement, 'roaming_agreement', { adminOf: () => null });
