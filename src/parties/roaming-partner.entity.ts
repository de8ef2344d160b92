import { defineEntity, p } from '@mikro-orm/core';
import { createdAtProperty, idProperty, identifierProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { recordsEvents } from '../events/event-kinds.ts';

/** A party that roams with us. The roaming setup is shared by all administrations. */
export const RoamingPartnerSchema = defineEntity({
  name: 'RoamingPartner',
  tableName: 'roaming_partner',
  properties: {
    id: idProperty(),
    name: p.string(),
    country: p.string().length(2),
    /** OCPI party ids ("NL*ABC" or "NLABC"), stored normalized without separator. */
    cpoIds: p.array().default([]),
    mspIds: p.array().default([]),
    billingEmail: p.string().nullable(),
    /** Its VAT identification number (BT-48 when it buys: a reverse-charge box needs it), country code first. */
    vatNumber: p.string().nullable(),
    externalReference: identifierProperty().nullable().unique(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class RoamingPartner extends RoamingPartnerSchema.class {}
RoamingPartnerSchema.setClass(RoamingPartner);
recordsEvents<RoamingPartner>(RoamingPartner, 'roaming_partner', { adminOf: () => null });
