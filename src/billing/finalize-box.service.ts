// Finalize: from ready (or approved when an external system supplies the documents). One
// transaction takes the series' next number, sets the date, renders and stores the final
// documents and moves the box: a number is never taken without a finalized box.
import type { Em } from '../platform/orm.ts';
import { DomainError } from '../platform/errors.ts';
import { localTime } from '../pricing/local-time.ts';
import { boxDetails, getBox, type BoxData } from './billing-box.queries.ts';
import { billingAdmin } from './billing-admin.ts';
import { takeDocumentNumber } from './document-number.ts';
import { deleteDrafts, putDocument } from './document-store.ts';
import { lockBox } from './lock-box.ts';
import { renderFinalDocuments } from './render-documents.ts';
import { documentKindOf } from './document/document-model.ts';

export interface ExternalDocument {
  bytes: Buffer;
  contentType: string;
  invoiceCode: string;
  invoiceDate: string;
}

export interface FinalizeOptions {
  markTransferred?: boolean;
  /** The document of an external system (series with document_source external). */
  upload?: ExternalDocument;
}

export async function finalizeBox(em: Em, id: string, options: FinalizeOptions = {}): Promise<BoxData> {
  await em.transactional(async (tx) => {
    const box = await lockBox(tx, id);
    const external = box.series.documentSource === 'external';
    const now = new Date();
    if (external) {
      if (!options.upload) {
        throw new DomainError('invalid_input', 'this series takes its documents from an external system: send the document with invoice_code and invoice_date',
          { path: [] });
      }
      box.finalize(now, options.upload.invoiceCode, options.upload.invoiceDate, true);
      const extension = options.upload.contentType === 'application/xml' ? 'xml' : 'pdf';
      await putDocument(tx, box.admin.id, box.id, {
        filename: `${options.upload.invoiceCode}.${extension}`, contentType: options.upload.contentType, bytes: options.upload.bytes, primary: true, draft: false,
      });
    } else {
      if (options.upload) throw new DomainError('invalid_input', 'this series renders its own documents: send no document', { path: [] });
      box.finalize(now, 'pending', 'pending', false);
      const admin = await billingAdmin(tx, box.admin.id);
      const issueDate = localTime(now, admin.timeZone).date;
      const number = await takeDocumentNumber(tx, box.series.id, box.series.code, Number(issueDate.slice(0, 4)));
      const [data] = await boxDetails(tx, [box.id]);
      const { model, files } = await renderFinalDocuments(tx, data, number, issueDate);
      box.invoiceCode = number;
      box.invoiceDate = issueDate;
      box.documentKind = model.kind;
      for (const file of files) await putDocument(tx, box.admin.id, box.id, file);
    }
    if (!box.documentKind) box.documentKind = documentKindOf({ primaryDocumentType: box.series.primaryDocumentType, totals: (await boxDetails(tx, [box.id]))[0].totals });
    await deleteDrafts(tx, box.id);
    if (options.markTransferred) box.markTransferred(now);
    await tx.flush();
  });
  return getBox(em, id);
}
