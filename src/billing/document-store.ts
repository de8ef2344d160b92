// Where a box's document bytes live: PostgreSQL, behind this small interface (another store,
// e.g. object storage, would implement the same four functions).
import type { Em } from '../platform/orm.ts';

export interface StoredDocument {
  filename: string;
  contentType: string;
  bytes: Buffer;
  primary: boolean;
  draft: boolean;
}

const PUT = `insert into billing_document_file (id, admin_id, box_id, filename, content_type, size, bytes, "primary", draft, created_at)
  values (svc_uuidv7(), ?, ?, ?, ?, ?, ?, ?, ?, now())
  on conflict (box_id, filename) do update set content_type = excluded.content_type, size = excluded.size, bytes = excluded.bytes,
    "primary" = excluded."primary", draft = excluded.draft, created_at = now()`;

export async function putDocument(em: Em, adminId: string, boxId: string, doc: StoredDocument): Promise<void> {
  await em.execute(PUT, [adminId, boxId, doc.filename, doc.contentType, doc.bytes.length, doc.bytes, doc.primary, doc.draft]);
}

export async function getDocument(em: Em, boxId: string, where: { filename?: string; primary?: boolean; contentType?: string }): Promise<StoredDocument | null> {
  const conditions = ['box_id = ?'];
  const params: unknown[] = [boxId];
  if (where.filename !== undefined) { conditions.push('filename = ?'); params.push(where.filename); }
  if (where.primary !== undefined) { conditions.push('"primary" = ?'); params.push(where.primary); }
  if (where.contentType !== undefined) { conditions.push('content_type = ?'); params.push(where.contentType); }
  const [row] = await em.execute<Record<string, any>[]>(
    `select filename, content_type, bytes, "primary", draft from billing_document_file where ${conditions.join(' and ')} order by filename limit 1`, params);
  return row ? { filename: row.filename, contentType: row.content_type, bytes: Buffer.from(row.bytes), primary: row.primary, draft: row.draft } : null;
}

export async function deleteDocument(em: Em, boxId: string, filename: string): Promise<boolean> {
  const rows = await em.execute<{ id: string }[]>('delete from billing_document_file where box_id = ? and filename = ? returning id', [boxId, filename]);
  return rows.length > 0;
}

export async function deleteDrafts(em: Em, boxId: string): Promise<void> {
  await em.execute('delete from billing_document_file where box_id = ? and draft', [boxId]);
}
