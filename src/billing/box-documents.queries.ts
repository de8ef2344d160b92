// A box's documents as both transports read them: the primary one (PDF, or its UBL), the preview
// of a box not yet finalized (rendered on request, no number, marked as a draft), a document by
// name, and what an end user may fetch of the boxes it may see (App API).
import type { Em } from '../platform/orm.ts';
import { DomainError } from '../platform/errors.ts';
import { getBox, getEndUserBox } from './billing-box.queries.ts';
import type { EndUserScope } from '../end-users/end-user-scope.ts';
import { getDocument, type StoredDocument } from './document-store.ts';
import { renderPreview } from './render-documents.ts';

export async function primaryDocument(em: Em, boxId: string, format: 'pdf' | 'xml'): Promise<StoredDocument> {
  const box = await getBox(em, boxId);
  if (box.state !== 'finalized') {
    throw new DomainError('document_missing', `the box is ${box.state}: its document exists once finalized (see primary-document-preview)`);
  }
  const primary = box.documents.find((d) => d.primary);
  const wanted = format === 'xml'
    // The UBL finalize wrote (or the external system's, uploaded with finalize): named exactly by the code.
    ? (primary?.contentType === 'application/xml' ? primary : box.documents.find((d) => d.contentType === 'application/xml' && !d.draft && d.filename === `${box.invoiceCode}.xml`))
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
