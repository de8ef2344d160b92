import { Migration } from '@mikro-orm/migrations';

// Lists polled by `after` (the spec: "clients continue by storing the id of the last item") must
// never show a row while a row of a smaller id can still commit: a poller would step past it for
// good. Processing batches run side by side (two lanes a process, any number of processes) and
// ingestion statements in every process, so their rows commit out of id order.
//
// A writer of a feed's rows takes its ids from svc_feed_ids: a shared advisory lock whose key holds
// the feed and the database clock's millisecond (its floor), then the ids (every one at or after the
// floor), all in the writer's transaction, the lock held to its end. A page of the feed reads, in a
// statement before its own, svc_feed_horizon: the database clock's millisecond, then the smallest
// floor of the feed's locks held; the page lists ids below it only. A writer not among the locks
// took its lock after the clock was read, so its ids come after the horizon; one among them has ids
// at or after its floor; one that committed before is visible to the page's later snapshot.
// Key: feed << 44 | milliseconds since 1970 (44 bits: until the year 2527).
export class Migration20261129140000_feed_horizon extends Migration {

  override name = 'Migration20261129140000_feed_horizon';

  override up(): void | Promise<void> {
    this.addSql(`create function svc_feed_ids(feed int, n int) returns setof uuid language plpgsql volatile as $$
      begin
        perform pg_advisory_xact_lock_shared((feed::bigint << 44) | floor(extract(epoch from clock_timestamp()) * 1000)::bigint);
        return query select svc_uuidv7() from generate_series(1, n);
      end $$;`);
    // The horizon as an id bound: the clock's millisecond, and on PostgreSQL 18, whose uuidv7() holds
    // the fraction of its millisecond in 12 bits, that fraction too (a row written earlier in the same
    // millisecond shows at once); before 18 ids are random below the millisecond, which then ends it.
    this.addSql(`create function svc_feed_horizon(feed int) returns uuid language plpgsql volatile as $$
      declare
        now_us bigint := floor(extract(epoch from clock_timestamp()) * 1000000)::bigint;
        floor_ms bigint;
        bound_ms bigint;
        fraction int := 0;
      begin
        select min(((l.classid::bigint << 32) | l.objid::bigint) & ((1::bigint << 44) - 1)) into floor_ms from pg_locks l
          where l.locktype = 'advisory' and l.objsubid = 1 and l.database = (select d.oid from pg_database d where d.datname = current_database())
            and ((l.classid::bigint << 32) | l.objid::bigint) >> 44 = feed;
        if floor_ms is not null and floor_ms <= now_us / 1000 then
          bound_ms := floor_ms;
        else
          bound_ms := now_us / 1000;
          if current_setting('server_version_num')::int >= 180000 then fraction := ((now_us % 1000) * 4096 / 1000)::int; end if;
        end if;
        return (lpad(to_hex(bound_ms), 12, '0') || case when fraction = 0 then '0000' else to_hex(28672 | fraction) end
          || '8000000000000000')::uuid;
      end $$;`);
  }

  override down(): void | Promise<void> {
    this.addSql('drop function svc_feed_horizon(int);');
    this.addSql('drop function svc_feed_ids(int, int);');
  }

}
