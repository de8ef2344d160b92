// This instance as GET /instance and the GraphQL `instance` answer it: its name, the product
// version and the roaming calculation switch (the one `instance_settings` row; its defaults
// before the first update).
import { PRODUCT_VERSION } from '../platform/config.ts';
import type { Em } from '../platform/orm.ts';
import { readRows } from '../platform/plain-reads.ts';
import { InstanceSettings, UNNAMED_INSTANCE } from './instance-settings.entity.ts';

export interface InstanceOverview { name: string; roamingEnabled: boolean; productVersion: string }

/** The overview of the settings row; without one, the defaults. */
export function overviewOf(settings: { name: string; roamingEnabled: boolean } | null | undefined): InstanceOverview {
  return { name: settings?.name ?? UNNAMED_INSTANCE, roamingEnabled: settings?.roamingEnabled ?? false, productVersion: PRODUCT_VERSION };
}

export async function instanceOverview(em: Em): Promise<InstanceOverview> {
  const [settings] = await readRows(em, { entity: InstanceSettings, fields: ['name', 'roamingEnabled'], map: (row) => row }, { id: 1 });
  return overviewOf(settings as { name: string; roamingEnabled: boolean } | undefined);
}
