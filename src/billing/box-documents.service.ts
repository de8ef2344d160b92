// A box's documents: the primary one (PDF, or its UBL), the preview of a box not yet finalized
// (rendered on request, no number, marked as a draft), and non-primary documents a client adds
// or removes. Finalized bytes are never changed.
import type { Em } from '../platform/orm.ts';
import { DomainError, InvalidInputError } from '../platform/errors.ts';
import { getBox, getEndUserBox } from './billing-box.queries.ts';
import type { EndUserScope } from '../end-users/end-user-scope.ts';
import { deleteDocument, getDocument, putDocument, type StoredDocument } from './document-store.ts';
import { renderPreview } from './render-documents.ts';

const FILENAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export async function primaryDocument(em: Em, boxId: string, format: 'pdf' | 'xml'): Promise<StoredDocument> {
  const box = await getBox(em, boxId);
  if (box.state !== 'finalized') {
    throw new DomainError('document_missing', `the box is ${box.state}: its document exists once finalized (see primary-document-preview)`);
  }
  const primary = box.documents.find((d) => d.primary);
  const wanted = format === 'xml'
    ? (primary?.contentType === 'application/xml' ? primary : box.documents.find((d) => d.contentType === 'application/xml' && !d.draft && d.filename.startsWith(box.invoiceCode ?? '\0')))
    : primary;
  const doc = wanted ? await getDocument(em, boxId, { filename: wanted.filename }) : null;
  if (!doc) throw new DomainError('document_missing', `the box has no ${format === 'xml' ? 'UBL' : 'primary'} document`);
  return doc;
}

export async function previewDocument(em: Em, boxId: string): Promise<StoredDocument> {
  const box = await getBox(em, boxId);
  if (box.state === 'finalized') return primaryDocument(em, boxId, 'pdf');
  return { filename: `preview-${box.id}.pdf`, contentType: 'application/pdf', bytes: await renderPreview(em, box), primary: false, draft: true };
}

export async function namedDocument(em: Em, boxId: string, filename: string): Promise<StoredDocument> {
  await getBox(em, boxId);
  const doc = await getDocument(em, boxId, { filename });
  if (!doc) throw new DomainError('document_missing', `the box has no document ${filename}`);
  return doc;
}

function checkFilename(filename: string): void {
  if (!FILENAME.test(filename)) throw new InvalidInputError('the filename must be 1 to 100 letters, digits, . _ or -', { path: [] });
}

export async function addDocument(em: Em, boxId: string, filename: string, upload: { contentType: string; bytes: Buffer } | undefined) {
  checkFilename(filename);
  if (!upload) throw new InvalidInputError('send the document as application/pdf or application/xml', { path: [] });
  await em.transactional(async (tx) => {
    const box = await getBox(tx, boxId);
    const existing = box.documents.find((d) => d.filename === filename);
    if (existing?.primary || (existing && box.state === 'finalized' && !existing.draft && existing.filename.startsWith(box.invoiceCode ?? '\0'))) {
      throw new DomainError('invalid_state', `${filename} is a document of the finalized box and cannot be replaced`);
    }
    await putDocument(tx, box.adminId, boxId, { filename, contentType: upload.contentType, bytes: upload.bytes, primary: false, draft: false });
  });
  return getBox(em, boxId);
}

export async function removeDocument(em: Em, boxId: string, filename: string) {
  checkFilename(filename);
  await em.transactional(async (tx) => {
    const box = await getBox(tx, boxId);
    const existing = box.documents.find((d) => d.filename === filename);
    if (!existing) throw new DomainError('document_missing', `the box has no document ${filename}`);
    if (existing.primary || (box.state === 'finalized' && existing.filename.startsWith(box.invoiceCode ?? '\0'))) {
      throw new DomainError('invalid_state', `${filename} is a document of the finalized box and cannot be removed`);
    }
    await deleteDocument(tx, boxId, filename);
  });
  return getBox(em, boxId);
}

/**
 * A stored document of a box the end user may see (App API): only boxes of customers the end user
 * is authorized over; drafts are not shown (the app gets what was issued).
 */
export async function endUserDocument(em: Em, scope: EndUserScope, boxId: string, filename: string): Promise<StoredDocument> {
  const box = await getEndUserBox(em, scope, boxId);
  const info = box.documents.find((d) => d.filename === filename && !d.draft);
  const doc = info ? await getDocument(em, boxId, { filename }) : null;
  if (!doc) throw new DomainError('document_missing', `the box has no document ${filename}`);
  return doc;
}
