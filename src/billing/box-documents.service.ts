// A box's non-primary documents a client adds or removes (the reads of its documents are in
// box-documents.queries.ts). Finalized bytes are never changed.
import type { Em } from '../platform/orm.ts';
import { DomainError, InvalidInputError } from '../platform/errors.ts';
import { getBox } from './billing-box.queries.ts';
import { deleteDocument, putDocument } from './document-store.ts';

const FILENAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

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
