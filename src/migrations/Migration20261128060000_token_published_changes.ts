import { Migration } from '@mikro-orm/migrations';

// What the OCPI tokens module publishes of a token (src/ocpi/token-of.ts) is derived from its own row
// and from the customer of the subscription it is linked to now: `valid` is false while that
// customer's charge authorization is blocked. A CPO syncs by `date_from` on `last_updated`, the
// token's `updated_at`, which only the token's own writes moved: a blocked customer's tokens stayed
// out of every delta sync, published valid (found by probing, 2026-11-28).
//
// Now every write that can change which blocked customer a token is linked to moves the token's
// `updated_at`, in the write's transaction, whatever path makes it (REST, GraphQL, the App API, the
// CLI, set-based SQL), by the triggers below:
// - a customer's `charge_auth_blocked` changing: the tokens of its subscriptions' links (neither
//   defunct nor ended);
// - a token link inserted, or its bounds, `defunct`, subscription or token changing, when its
//   subscription's customer (before or after) is blocked: its token (both, if it changed);
// - a subscription's bounds, `defunct` or customer changing, when its customer (before or after) is
//   blocked: the tokens of its links (not defunct, not ended).
// The stamp is the clock at the change, to the millisecond as the ORM's stamps, and always after the
// token's own. Tokens are locked in id order (two blocks sharing tokens cannot deadlock). Writes that
// concern no blocked customer touch nothing (the customer's trigger fires only on a change of the
// flag; a subscription's credit balance or custom fields never fire it).
//
// A change that only time makes (a blocked customer's link or subscription starting or ending) moves
// nothing: docs/decisions.md, OCPI tokens.
//
// The tokens module reads the tokens in (updated_at, id) order, paged and filtered on updated_at:
// the index reads a page (and a date_from window) in order, not every token sorted.
const TOUCH = `create function msp_token_touch(token_ids uuid[]) returns void language sql as $$
    with locked as materialized (select id from msp_token where id = any(token_ids) order by id for no key update)
    update msp_token t set updated_at = greatest(date_trunc('milliseconds', clock_timestamp()), t.updated_at + interval '1 millisecond')
      from locked where t.id = locked.id
  $$;`;

const CUSTOMER = `create function msp_token_customer_block_changed() returns trigger language plpgsql as $$
    declare ids uuid[];
    begin
      ids := array(select distinct l.token_id from msp_token_subscription s join msp_token_link l on l.subscription_id = s.id
        where s.customer_id = new.id and not s.defunct and not l.defunct
          and (s.valid_until is null or s.valid_until > clock_timestamp()) and (l.valid_until is null or l.valid_until > clock_timestamp()));
      if cardinality(ids) > 0 then perform msp_token_touch(ids); end if;
      return null;
    end $$;`;

const LINKS_INSERTED = `create function msp_token_links_inserted() returns trigger language plpgsql as $$
    declare ids uuid[];
    begin
      ids := array(select distinct n.token_id from new_links n
        join msp_token_subscription s on s.id = n.subscription_id join customer c on c.id = s.customer_id
        where c.charge_auth_blocked);
      if cardinality(ids) > 0 then perform msp_token_touch(ids); end if;
      return null;
    end $$;`;

// Links change rarely and in sets (a subscription's defunct cascade, a correction): one statement's
// changed links at once.
const LINKS_UPDATED = `create function msp_token_links_updated() returns trigger language plpgsql as $$
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

const SUBSCRIPTION = `create function msp_token_subscription_changed() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from customer c where c.id in (old.customer_id, new.customer_id) and c.charge_auth_blocked) then
        perform msp_token_touch(array(select distinct l.token_id from msp_token_link l
          where l.subscription_id = new.id and not l.defunct and (l.valid_until is null or l.valid_until > clock_timestamp())));
      end if;
      return null;
    end $$;`;

export class Migration20261128060000_token_published_changes extends Migration {

  override name = 'Migration20261128060000_token_published_changes';

  override up(): void | Promise<void> {
    this.addSql(`create index "msp_token_updated_at_id_index" on "msp_token" ("updated_at", "id");`);
    this.addSql(TOUCH);
    this.addSql(CUSTOMER);
    this.addSql(`create trigger msp_token_published_customer after update of charge_auth_blocked on "customer" for each row
      when (old.charge_auth_blocked is distinct from new.charge_auth_blocked) execute function msp_token_customer_block_changed();`);
    this.addSql(LINKS_INSERTED);
    this.addSql(`create trigger msp_token_published_link_insert after insert on "msp_token_link" referencing new table as new_links
      for each statement execute function msp_token_links_inserted();`);
    this.addSql(LINKS_UPDATED);
    this.addSql(`create trigger msp_token_published_link_update after update on "msp_token_link" referencing old table as old_links new table as new_links
      for each statement execute function msp_token_links_updated();`);
    this.addSql(SUBSCRIPTION);
    this.addSql(`create trigger msp_token_published_subscription after update of valid_from, valid_until, defunct, customer_id on "msp_token_subscription"
      for each row when (old.valid_from is distinct from new.valid_from or old.valid_until is distinct from new.valid_until
        or old.defunct is distinct from new.defunct or old.customer_id is distinct from new.customer_id)
      execute function msp_token_subscription_changed();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger msp_token_published_subscription on "msp_token_subscription";`);
    this.addSql(`drop function msp_token_subscription_changed();`);
    this.addSql(`drop trigger msp_token_published_link_update on "msp_token_link";`);
    this.addSql(`drop function msp_token_links_updated();`);
    this.addSql(`drop trigger msp_token_published_link_insert on "msp_token_link";`);
    this.addSql(`drop function msp_token_links_inserted();`);
    this.addSql(`drop trigger msp_token_published_customer on "customer";`);
    this.addSql(`drop function msp_token_customer_block_changed();`);
    this.addSql(`drop function msp_token_touch(uuid[]);`);
    this.addSql(`drop index "msp_token_updated_at_id_index";`);
  }

}
