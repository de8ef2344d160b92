import { Migration } from '@mikro-orm/migrations';

// A transaction's first event row marked by the commit trigger's own condition, not by a trigger of
// its own. The BEFORE trigger svc_event_mark_first called a PL/pgSQL function for the first row of
// each transaction, which only set `svc.first_event`; PostgreSQL spent about 38 µs a call on it
// (pg_stat_user_functions, the statistics' own timing included: `npm run bench -- customers` with
// BENCH_PG_STATEMENTS, where each create commits alone, 3,500 calls), against 5 µs for its set_config.
//
// Now the deferred constraint trigger's WHEN sets it: a constraint trigger's condition is evaluated
// as each row is inserted (not at the commit). The first row of a transaction finds the setting
// empty, sets it (set_config answers the value it set, never null) and queues the trigger; the later
// rows find it set and queue nothing (were set_config evaluated for them too, it would only set the
// setting again: the trigger's function does not read it). A savepoint rolled back takes its setting
// and its queued trigger with it, as before; a statement that inserts no event marks nothing. The
// mark now comes after the row is written, so a BEFORE trigger that skips a row can no longer leave
// it on a row never written.
const MARK_AND_QUEUE = `create constraint trigger svc_event_commit_order after insert on "svc_event" deferrable initially deferred
      for each row when (coalesce(current_setting('svc.first_event', true), '') = ''
        and set_config('svc.first_event', new.id::text, true) is not null)
      execute function svc_event_commit_order();`;

export class Migration20261127140000_event_commit_mark extends Migration {

  override name = 'Migration20261127140000_event_commit_mark';

  override up(): void | Promise<void> {
    this.addSql(`drop trigger svc_event_commit_order on "svc_event";`);
    this.addSql(`drop trigger svc_event_mark_first on "svc_event";`);
    this.addSql(`drop function svc_event_mark_first();`);
    this.addSql(MARK_AND_QUEUE);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger svc_event_commit_order on "svc_event";`);
    this.addSql(`create function svc_event_mark_first() returns trigger language plpgsql as $$
      begin
        perform set_config('svc.first_event', new.id::text, true);
        return new;
      end $$;`);
    this.addSql(`create trigger svc_event_mark_first before insert on "svc_event" for each row
      when (coalesce(current_setting('svc.first_event', true), '') = '') execute function svc_event_mark_first();`);
    this.addSql(`create constraint trigger svc_event_commit_order after insert on "svc_event" deferrable initially deferred
      for each row when (current_setting('svc.first_event', true) = new.id::text) execute function svc_event_commit_order();`);
  }

}
