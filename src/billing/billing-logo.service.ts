// An administration's logo on its billing documents: uploaded as raw bytes with its content type
// (image/png or image/svg+xml, at most 1 MB, drawn once to check it: document/logo.ts), read back,
// removed. Documents rendered from then on carry it; finalized ones keep what they were rendered with.
import { visibleAdministration } from '../parties/customer-input.ts';
import { DomainError, InvalidInputError } from '../platform/errors.ts';
import type { Em } from '../platform/orm.ts';
import { logoProblem, type Logo } from './document/logo.ts';

export interface LogoInfo { adminId: string; contentType: string; size: number; updatedAt: Date }

const logoInfo = (row: Record<string, any> | undefined): LogoInfo | null =>
  (row ? { adminId: row.admin_id, contentType: row.content_type, size: row.size, updatedAt: new Date(row.updated_at) } : null);

const PUT = `insert into billing_logo (admin_id, content_type, size, bytes, created_at, updated_at) values (?, ?, ?, ?, now(), now())
  on conflict (admin_id) do update set content_type = excluded.content_type, size = excluded.size, bytes = excluded.bytes, updated_at = now()`;

export async function setBillingLogo(em: Em, adminId: string, upload: { contentType: string; bytes: Buffer } | undefined): Promise<LogoInfo> {
  const admin = await visibleAdministration(em, adminId, null);
  if (!upload) throw new InvalidInputError('send the logo as the body: image/png or image/svg+xml, at most 1 MB', { path: [] });
  const problem = await logoProblem(upload.contentType, upload.bytes);
  if (problem) throw new InvalidInputError(problem, { path: [] });
  await em.execute(PUT, [admin.id, upload.contentType, upload.bytes.length, upload.bytes]);
  return (await billingLogoInfo(em, admin.id))!;
}

/** The logo of an administration the caller sees, or null without one. */
export async function visibleBillingLogoInfo(em: Em, adminId: string): Promise<LogoInfo | null> {
  return billingLogoInfo(em, (await visibleAdministration(em, adminId, null)).id);
}

async function billingLogoInfo(em: Em, adminId: string): Promise<LogoInfo | null> {
  const [row] = await em.execute<Record<string, any>[]>('select admin_id, content_type, size, updated_at from billing_logo where admin_id = ?', [adminId]);
  return logoInfo(row);
}

/** The logo's bytes for rendering (no visibility check: the caller renders a box it may see). */
export async function billingLogoOf(em: Em, adminId: string): Promise<Logo | null> {
  const [row] = await em.execute<{ content_type: string; bytes: Buffer }[]>('select content_type, bytes from billing_logo where admin_id = ?', [adminId]);
  return row ? { content_type: row.content_type, bytes: Buffer.from(row.bytes) } : null;
}

/** The logo of an administration the caller sees, or 400 document_missing. */
export async function getBillingLogo(em: Em, adminId: string): Promise<Logo> {
  const admin = await visibleAdministration(em, adminId, null);
  const logo = await billingLogoOf(em, admin.id);
  if (!logo) throw new DomainError('document_missing', `administration ${admin.id} has no logo`);
  return logo;
}

/** Removes the logo of an administration the caller sees: what was removed, null when it had none. */
export async function removeBillingLogo(em: Em, adminId: string): Promise<LogoInfo | null> {
  const admin = await visibleAdministration(em, adminId, null);
  const [row] = await em.execute<Record<string, any>[]>(
    'delete from billing_logo where admin_id = ? returning admin_id, content_type, size, updated_at', [admin.id]);
  return logoInfo(row);
}
