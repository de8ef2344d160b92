// The instance's own settings (the one `instance_settings` row): merge-update of its name and of
// roaming_enabled, the switch of the roaming cost calculation (src/session-processing/roaming-costs.ts).
// Shared by every administration: only a credential without an administration limit may change it
// (src/access/instance-wide.ts).
// The first update creates the row.
import { refuseBlank } from '../platform/blank-text.ts';
import { callerScope } from '../access/admin-scope.ts';
import { assertMayChangeInstanceWide } from '../access/instance-wide.ts';
import { InvalidInputError } from '../platform/errors.ts';
import { applyPatch, type Patch } from '../platform/merge-patch.ts';
import type { Em } from '../platform/orm.ts';
import { overviewOf, type InstanceOverview } from './instance.queries.ts';
import { InstanceSettings, UNNAMED_INSTANCE } from './instance-settings.entity.ts';

export interface InstanceFields {
  name: string;
  roamingEnabled: boolean;
}

/** Answers the instance as GET /instance then does. */
export async function updateInstanceSettings(em: Em, patch: Patch<InstanceFields>): Promise<InstanceOverview> {
  assertMayChangeInstanceWide(callerScope(em), 'instance settings');
  if (patch.name === null) throw new InvalidInputError('name cannot be removed', { path: ['name'] });
  refuseBlank(patch.name, ['name']);
  if (patch.roamingEnabled === null) throw new InvalidInputError('roaming_enabled cannot be removed', { path: ['roaming_enabled'] });
  return em.transactional(async (tx) => {
    // Two first updates at once would both create the row: one waits for the other.
    await tx.execute(`select pg_advisory_xact_lock(hashtext('instance_settings'))`);
    const settings = await tx.findOne(InstanceSettings, { id: 1 }, { refresh: true })
      ?? tx.create(InstanceSettings, { id: 1, name: UNNAMED_INSTANCE, roamingEnabled: false });
    applyPatch(settings, patch);
    await tx.flush();
    return overviewOf(settings);
  });
}
