import { Migration } from '@mikro-orm/migrations';

// A statement that inserts no event (an INSERT .. SELECT whose source came out empty: a customer
// create whose reference was taken, a batch of sessions all stored before) wrote the transaction's
// svc_event_commit row all the same, and so took a commit position (and the commit lock) for
// nothing: a refused write changed a table. The statement trigger now sees the rows its statement
// inserted (a transition table) and writes the row only when there is one. A query for the
// transaction's events instead cost a scan of svc_event per statement once its plan, cached in the
// connection, was made while the table was small.
export class Migration20261127060000_event_commit_marker extends Migration {

  override name = 'Migration20261127060000_event_commit_marker';

  override up(): void | Promise<void> {
    this.addSql(`create or replace function svc_event_commit_marker() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from inserted_events) then
          insert into svc_event_commit (tx_id) values (txid_current()) on conflict (tx_id) do nothing;
        end if;
        return null;
      end $$;`);
    this.addSql(`drop trigger svc_event_commit_marker on "svc_event";`);
    this.addSql(`create trigger svc_event_commit_marker after insert on "svc_event" referencing new table as inserted_events
      for each statement execute function svc_event_commit_marker();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger svc_event_commit_marker on "svc_event";`);
    this.addSql(`create or replace function svc_event_commit_marker() returns trigger language plpgsql as $$
      begin
        insert into svc_event_commit (tx_id) values (txid_current()) on conflict (tx_id) do nothing;
        return null;
      end $$;`);
    this.addSql(`create trigger svc_event_commit_marker after insert on "svc_event" for each statement execute function svc_event_commit_marker();`);
  }

}
