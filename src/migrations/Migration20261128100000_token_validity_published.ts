import { Migration } from '@mikro-orm/migrations';

// The OCPI tokens module publishes a token `valid` only while our authorization would let it start
// (src/ocpi/token-of.ts): a current non-defunct link, its subscription valid and not defunct, neither
// the token nor that customer blocked. Before, a token without a current subscription was published
// valid though we refuse it (`no_valid_link`, `subscription_not_valid`): with whitelist ALLOWED a CPO
// may start it offline, and the session then prices nowhere (found by probing, 2026-11-28).
//
// A CPO syncs by `date_from` on `last_updated` (the token's `updated_at`), so every change of that
// decision moves it:
// - writes: the triggers of token_published_changes now move the token on every link inserted or
//   changed and every subscription bound, defunct or customer change, not only when a blocked
//   customer is concerned (a customer's block keeps its trigger);
// - time: a link or subscription starting or ending at its bound. The job `token_validity_bounds`
//   (every minute, src/ocpi/token-validity-bounds.ts) moves the tokens of every bound passed since
//   its last run, the moment kept in `msp_token_bound_watermark`; the four indexes below read the
//   bounds of that minute.
const LINKS_INSERTED = `create or replace function msp_token_links_inserted() returns trigger language plpgsql as $$
    declare ids uuid[];
    begin
      ids := array(select distinct n.token_id from new_links n where not n.defunct);
      if cardinality(ids) > 0 then perform msp_token_touch(ids); end if;
      return null;
    end $$;`;

const LINKS_UPDATED = `create or replace function msp_token_links_updated() returns trigger language plpgsql as $$
    declare ids uuid[];
    begin
      ids := array(select distinct x.token_id from old_links o join new_links n on n.id = o.id
        cross join lateral (values (o.token_id), (n.token_id)) x(token_id)
        where o.valid_from is distinct from n.valid_from or o.valid_until is distinct from n.valid_until or o.defunct <> n.defunct
          or o.subscription_id <> n.subscription_id or o.token_id <> n.token_id);
      if cardinality(ids) > 0 then perform msp_token_touch(ids); end if;
      return null;
    end $$;`;

const SUBSCRIPTION = `create or replace function msp_token_subscription_changed() returns trigger language plpgsql as $$
    declare ids uuid[];
    begin
      ids := array(select distinct l.token_id from msp_token_link l
        where l.subscription_id = new.id and not l.defunct and (l.valid_until is null or l.valid_until > clock_timestamp()));
      if cardinality(ids) > 0 then perform msp_token_touch(ids); end if;
      return null;
    end $$;`;

// As token_published_changes wrote them: only when a blocked customer is concerned.
const LINKS_INSERTED_BEFORE = `create or replace function msp_token_links_inserted() returns trigger language plpgsql as $$
    declare ids uuid[];
    begin
      ids := array(select distinct n.token_id from new_links n
        join msp_token_subscription s on s.id = n.subscription_id join customer c on c.id = s.customer_id
        where c.charge_auth_blocked);
      if cardinality(ids) > 0 then perform msp_token_touch(ids); end if;
      return null;
    end $$;`;

const LINKS_UPDATED_BEFORE = `create or replace function msp_token_links_updated() returns trigger language plpgsql as $$
    declare ids uuid[];
    begin
      ids := array(select distinct x.token_id from old_links o join new_links n on n.id = o.id
        cross join lateral (values (o.token_id), (n.token_id)) x(token_id)
        where (o.valid_from is distinct from n.valid_from or o.valid_until is distinct from n.valid_until or o.defunct <> n.defunct
            or o.subscription_id <> n.subscription_id or o.token_id <> n.token_id)
          and exists (select 1 from msp_token_subscription s join customer c on c.id = s.customer_id
            where s.id in (o.subscription_id, n.subscription_id) and c.charge_auth_blocked));
      if cardinality(ids) > 0 then perform msp_token_touch(ids); end if;
      return null;
    end $$;`;

const SUBSCRIPTION_BEFORE = `create or replace function msp_token_subscription_changed() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from customer c where c.id in (old.customer_id, new.customer_id) and c.charge_auth_blocked) then
        perform msp_token_touch(array(select distinct l.token_id from msp_token_link l
          where l.subscription_id = new.id and not l.defunct and (l.valid_until is null or l.valid_until > clock_timestamp())));
      end if;
      return null;
    end $$;`;

const BOUND_INDEXES: [table: string, column: string][] = [
  ['msp_token_link', 'valid_from'], ['msp_token_link', 'valid_until'],
  ['msp_token_subscription', 'valid_from'], ['msp_token_subscription', 'valid_until'],
];

export class Migration20261128100000_token_validity_published extends Migration {

  override name = 'Migration20261128100000_token_validity_published';

  override up(): void | Promise<void> {
    this.addSql(LINKS_INSERTED);
    this.addSql(LINKS_UPDATED);
    this.addSql(SUBSCRIPTION);
    for (const [table, column] of BOUND_INDEXES) this.addSql(`create index "${table}_${column}_index" on "${table}" ("${column}");`);
    this.addSql(`create table "msp_token_bound_watermark" ("only" boolean primary key default true check ("only"), "passed_until" timestamptz not null);`);
    this.addSql(`insert into "msp_token_bound_watermark" ("passed_until") values (now());`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table "msp_token_bound_watermark";`);
    for (const [table, column] of BOUND_INDEXES) this.addSql(`drop index "${table}_${column}_index";`);
    this.addSql(SUBSCRIPTION_BEFORE);
    this.addSql(LINKS_UPDATED_BEFORE);
    this.addSql(LINKS_INSERTED_BEFORE);
  }

}
