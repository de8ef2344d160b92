import { defineEntity, p } from '@mikro-orm/core';
import { updatedAtProperty } from '../platform/entity-properties.ts';

/** The one row describing this instance. */
export const InstanceSettingsSchema = defineEntity({
  name: 'InstanceSettings',
  tableName: 'instance_settings',
  properties: {
    id: p.integer().primary().default(1),
    name: p.string(),
    roamingEnabled: p.boolean().default(false),
    updatedAt: updatedAtProperty(),
  },
});

export class InstanceSettings extends InstanceSettingsSchema.class {}
InstanceSettingsSchema.setClass(InstanceSettings);
