// A box's non-primary documents a client adds or removes (the reads of its documents are in
// box-documents.queries.ts). Finalized bytes are never changed.
import type { Em } from '../platform/orm.ts';
import { DomainError, InvalidInputError } from '../platform/errors.ts';
import { getBox } from './billing-box.queries.ts';
import { deleteDocument, putDocument } from './document-store.ts';
import { lockBox } from './lock-box.ts';

const FILENAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

function checkFilename(filename: string): void {
  if (!FILENAME.test(filename)) throw new InvalidInputError('the filename must be 1 to 100 letters, digits, . _ or -', { path: [] });
}

/**
 * The box as committed once a finalize in flight is done: its row locked (lock-box.ts), then read
 * afresh. Read before the lock, an upload while the box finalized replaced its new document.
 */
async function lockedBox(tx: Em, boxId: string) {
  await lockBox(tx, (await getBox(tx, boxId)).id);
  return getBox(tx, boxId);
}

/** A finalized box's own documents are named by its invoice code. */
const isFinalizedName = (box: { state: string; invoiceCode: string | null }, filename: string) =>
  box.state === 'finalized' && box.invoiceCode !== null && filename.startsWith(box.invoiceCode);

export async function addDocument(em: Em, boxId: string, filename: string, upload: { contentType: string; bytes: Buffer } | undefined) {
  checkFilename(filename);
  if (!upload) throw new InvalidInputError('send the document as application/pdf or application/xml', { path: [] });
  await em.transactional(async (tx) => {
    const box = await lockedBox(tx, boxId);
    const existing = box.documents.find((d) => d.filename === filename);
    if (existing?.primary || (existing && !existing.draft && isFinalizedName(box, filename))) {
      throw new DomainError('invalid_state', `${filename} is a document of the finalized box and cannot be replaced`);
    }
    await putDocument(tx, box.adminId, boxId, { filename, contentType: upload.contentType, bytes: upload.bytes, primary: false, draft: false });
  });
  return getBox(em, boxId);
}

export async function removeDocument(em: Em, boxId: string, filename: string) {
  checkFilename(filename);
  await em.transactional(async (tx) => {
    const box = await lockedBox(tx, boxId);
    const existing = box.documents.find((d) => d.filename === filename);
    if (!existing) throw new DomainError('document_missing', `the box has no document ${filename}`);
    if (existing.primary || isFinalizedName(box, filename)) {
      throw new DomainError('invalid_state', `${filename} is a document of the finalized box and cannot be removed`);
    }
    await deleteDocument(tx, boxId, filename);
  });
  return getBox(em, boxId);
}
