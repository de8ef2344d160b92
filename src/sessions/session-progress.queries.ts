// GET /msp-charge-session-progress: every MSP charge session, and the OCPI Sessions a CPO reports
// while they run (src/ocpi/ocpi-session.entity.ts) until their CDR became a charge session; one
// list ordered by id (UUIDv7 of both: creation order), paged by the REST seek pager. A charge session
// is its driver's side's (charge-session.entity.ts `driverAdmin`), an OCPI session belongs to the
// administration of the driver's token; one whose contract id is not ours
// (like a received session whose token is not resolved) only credentials of every administration see.
import { callerScope } from '../access/admin-scope.ts';
import { feedHorizon } from '../platform/feed-horizon.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import type { SeekRange } from '../platform/seek-page.ts';

/** Progress of an OCPI session: charging (ACTIVE, PENDING, RESERVATION) or awaiting_cdr (COMPLETED). */
export const OCPI_PROGRESS_STATUSES = ['charging', 'awaiting_cdr'] as const;

export interface ProgressRow { id: string; session_status: string; total_energy_kwh: string; last_update: Date; evse_id: string | null }

const PROGRESS = `with progress as (
    select id, status as session_status, energy_kwh::text as total_energy_kwh, updated_at as last_update, evse_id, driver_admin_id::text as admin_id, created_at
    from msp_charge_session
    union all
    select id, case status when 'COMPLETED' then 'awaiting_cdr' else 'charging' end, kwh::text, last_updated, null, admin_id::text, created_at
    from ocpi_session where status <> 'INVALID' and charge_session_id is null
  )
  select id, session_status, total_energy_kwh, last_update, evse_id from progress
  where (?::boolean or lower(admin_id) in (select lower(value) from json_array_elements_text(?::json)))`;

/** The list in the form rest/rails/pagination.ts seekPage pages (has, page, keyOf, firstCreatedAfter). */
export class SessionProgressList {
  readonly key = 'id';
  private readonly em: Em;
  constructor(em: Em) { this.em = em; }

  private scope(): unknown[] {
    const scope = callerScope(this.em);
    return [scope.all, JSON.stringify(scope.ids)];
  }

  keyOf(row: ProgressRow): string { return row.id; }

  async has(id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    return (await this.em.execute(`${PROGRESS} and id = ?::uuid`, [...this.scope(), id])).length > 0;
  }

  /** Below the sessions feed's horizon, as GET /msp-charge-session: no session can commit behind a poller's stored id. */
  async page(range: SeekRange): Promise<ProgressRow[]> {
    const horizon = await feedHorizon(this.em, 'sessions');
    const after = range.after ? ' and id > ?::uuid' : '';
    return this.em.execute<ProgressRow[]>(`${PROGRESS}${after} and id < ?::uuid order by id limit ?`,
      [...this.scope(), ...(range.after ? [range.after] : []), horizon, range.limit]);
  }

  async firstCreatedAfter(moment: Date): Promise<string | null> {
    const rows = await this.em.execute<{ id: string }[]>(`${PROGRESS} and created_at > ? order by id limit 1`, [...this.scope(), moment]);
    return rows[0]?.id ?? null;
  }
}
