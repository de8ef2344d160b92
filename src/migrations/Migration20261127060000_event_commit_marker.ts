import { Migration } from '@mikro-orm/migrations';

// A statement that inserts no event (an INSERT .. SELECT whose source came out empty: a customer
// create whose reference was taken, a batch of sessions all stored before) wrote the transaction's
// svc_event_commit row all the same, and so took a commit position (and the commit lock) for
// nothing: a refused write changed a table. The marker now writes it only once the transaction
// holds an event (one probe of the tx_id index).
export class Migration20261127060000_event_commit_marker extends Migration {

  override name = 'Migration20261127060000_event_commit_marker';

  override up(): void | Promise<void> {
    this.addSql(`create or replace function svc_event_commit_marker() returns trigger language plpgsql as $$
      begin
        insert into svc_event_commit (tx_id) select txid_current()
          where exists (select 1 from svc_event where tx_id = txid_current())
          on conflict (tx_id) do nothing;
        return null;
      end $$;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`create or replace function svc_event_commit_marker() returns trigger language plpgsql as $$
      begin
        insert into svc_event_commit (tx_id) values (txid_current()) on conflict (tx_id) do nothing;
        return null;
      end $$;`);
  }

}
