import { defineEntity, p } from '@mikro-orm/core';
import { recordsEvents } from '../events/event-kinds.ts';
import { updatedAtProperty } from '../platform/entity-properties.ts';

/** The name GET /instance answers before one is set. */
export const UNNAMED_INSTANCE = 'unnamed instance';

/** The one row describing this instance (id 1); written by update-instance-settings.service.ts. */
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
recordsEvents<InstanceSettings>(InstanceSettings, 'instance', { adminOf: () => null, idOf: () => 'instance' });
