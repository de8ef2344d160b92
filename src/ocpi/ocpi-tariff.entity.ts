import { defineEntity, p } from '@mikro-orm/core';
import { RoamingConnection } from '../roaming/roaming-connection.entity.ts';
import { createdAtProperty, idProperty, updatedAtProperty } from '../platform/entity-properties.ts';

/** A CPO's OCPI Tariff, per connection as the CPO pushed it (the roaming cost calculation reads it later). */
export const OcpiTariffSchema = defineEntity({
  name: 'OcpiTariff',
  tableName: 'ocpi_tariff',
  uniques: [{ properties: ['roamingConnectionId', 'countryCode', 'partyId', 'tariffId'] }],
  properties: {
    id: idProperty(),
    roamingConnectionId: () => p.manyToOne(RoamingConnection).mapToPk().fieldName('roaming_connection_id'),
    countryCode: p.string().length(2),
    partyId: p.string().length(3),
    tariffId: p.string().length(36),
    body: p.json<Record<string, unknown>>(),
    lastUpdated: p.datetime(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class OcpiTariff extends OcpiTariffSchema.class {}
OcpiTariffSchema.setClass(OcpiTariff);
