import { Migration } from '@mikro-orm/migrations';

// OCPI identifies a token by uid and type. The tokens module published only a token's current identity
// (src/ocpi/token-of.ts: its UID, else its EVCO id; APP_USER for a virtual token, RFID for one with a UID,
// else OTHER), so when that changed (a lost card's UID replaced, a token's first UID, an activation with
// the card's UID, a UID OCPI cannot carry) nothing a CPO could pull said the former identity was no
// longer valid: with whitelist ALLOWED the old card charged on offline, billed to the customer even
// after a block, or free (found by probing, 2026-11-29).
//
// Now every change of a token's published identity keeps the former one in `ocpi_retired_token`, in the
// transaction of the change, whatever path makes it (REST, GraphQL, activation, set-based SQL), by the
// trigger below; the tokens module publishes it `valid: false`, `last_updated` its `retired_at` (the
// change's moment: the token's new `updated_at`, or the clock's millisecond when later). It is kept only
// if it was publishable (OCPI's lengths, as ocpiTokenSql decides) and no other token publishes it now
// (uids stored twice before the uid check). An identity a token takes (issued or changed to it) is
// deleted, in the same transaction: it is that token's again. A UID changed only in its casing is the
// same identity (OCPI's CiString; the column is citext). One row per identity.
const IDENTITY_CHANGED = `create function ocpi_token_identity_changed() returns trigger language plpgsql as $$
    declare
      new_uid text := coalesce(new.uid::text, new.evco_id::text);
      new_type text := case when new.form_factor = 'virtual' then 'APP_USER' when new.uid is not null then 'RFID' else 'OTHER' end;
      old_uid text;
      old_type text;
    begin
      if tg_op = 'UPDATE' then
        old_uid := coalesce(old.uid::text, old.evco_id::text);
        old_type := case when old.form_factor = 'virtual' then 'APP_USER' when old.uid is not null then 'RFID' else 'OTHER' end;
        if lower(old_uid) = lower(new_uid) and old_type = new_type then return null; end if;
        if char_length(old_uid) <= 36 and char_length(old.evco_id::text) <= 36
          and not exists (select 1 from msp_token t where t.id <> new.id and t.uid = old_uid::citext
            and (case when t.form_factor = 'virtual' then 'APP_USER' else 'RFID' end) = old_type)
          and not exists (select 1 from msp_token t where t.id <> new.id and t.uid is null and t.evco_id = old_uid::citext
            and (case when t.form_factor = 'virtual' then 'APP_USER' else 'OTHER' end) = old_type)
        then
          insert into ocpi_retired_token (id, token_id, uid, type, evco_id, retired_at)
            values (svc_uuidv7(), old.id, old_uid, old_type, old.evco_id, greatest(date_trunc('milliseconds', clock_timestamp()), new.updated_at))
            on conflict (uid, type) do update set token_id = excluded.token_id, evco_id = excluded.evco_id, retired_at = excluded.retired_at;
        end if;
      end if;
      delete from ocpi_retired_token where uid = new_uid::citext and type = new_type;
      return null;
    end $$;`;

export class Migration20261129220000_ocpi_retired_token extends Migration {

  override name = 'Migration20261129220000_ocpi_retired_token';

  override up(): void | Promise<void> {
    this.addSql(`create table "ocpi_retired_token" ("id" uuid not null, "token_id" uuid not null, "uid" citext not null, "type" text not null,
      "evco_id" citext not null, "retired_at" timestamptz not null, primary key ("id"),
      constraint "ocpi_retired_token_type_check" check ("type" in ('RFID', 'APP_USER', 'OTHER')));`);
    this.addSql(`alter table "ocpi_retired_token" add constraint "ocpi_retired_token_uid_type_unique" unique ("uid", "type");`);
    // The tokens module reads the retired identities in (retired_at, id) order, as the tokens by (updated_at, id).
    this.addSql(`create index "ocpi_retired_token_retired_at_id_index" on "ocpi_retired_token" ("retired_at", "id");`);
    this.addSql(IDENTITY_CHANGED);
    this.addSql(`create trigger ocpi_token_identity after insert or update of uid, evco_id, form_factor on "msp_token"
      for each row execute function ocpi_token_identity_changed();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger ocpi_token_identity on "msp_token";`);
    this.addSql(`drop function ocpi_token_identity_changed();`);
    this.addSql(`drop table "ocpi_retired_token";`);
  }

}
