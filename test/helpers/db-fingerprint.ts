import pg from 'pg';

/**
 * A digest of every application table's content: equal digests mean no row was added, removed or
 * changed. One statement, so it is cheap enough to take after every rejected write of a fuzz run.
 */
export async function databaseFingerprint(client: pg.Client): Promise<string> {
  const { rows: tables } = await client.query<{ name: string }>(
    `select quote_ident(table_name) as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like 'mikro_orm%' order by table_name`,
  );
  if (tables.length === 0) return '';
  const parts = tables.map(({ name }) => `select '${name}' as t, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as d from ${name} x`);
  const { rows } = await client.query<{ t: string; d: string }>(parts.join(' union all '));
  return rows.map((row) => `${row.t}:${row.d}`).join(',');
}
