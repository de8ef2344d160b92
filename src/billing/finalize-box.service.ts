// Finalize: from ready (or approved when an external system supplies the documents). One
// transaction takes the series' next number, sets the date, renders and stores the final
// documents and moves the box: a number is never taken without a finalized box. The number is
// taken last: the documents are laid out first (the box locked, the series not), so finalizes of
// the same series wait for each other only while a number is drawn in, the bytes stored and the
// transaction committed, never while a document renders (decisions: "Billing", numbers).
import type { Em } from '../platform/orm.ts';
import { DomainError, InvalidInputError } from '../platform/errors.ts';
import { flushUnique } from '../platform/flush-unique.ts';
import { DATE_FORMAT, parseDate } from '../platform/timestamp.ts';
import { localTime } from '../pricing/local-time.ts';
import { boxDetails, getBox, type BoxData } from './billing-box.queries.ts';
import { billingAdmin } from './billing-admin.ts';
import { takeDocumentNumber } from './document-number.ts';
import { deleteDrafts, putDocument } from './document-store.ts';
import { lockBox } from './lock-box.ts';
import { prepareFinalDocuments } from './render-documents.ts';
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
  /** Tests: runs after the documents are laid out, before the number is taken. */
  beforeNumber?: () => Promise<void>;
  /** Tests: runs with the number taken, before the documents are drawn and stored. */
  numbered?: () => Promise<void>;
}

/** billing_box's unique index of invoice codes per series, in any casing (migration 20261129120000). */
const INVOICE_CODE_UNIQUE = 'billing_box_series_invoice_code_unique';

/** An external system's invoice code numbers one document of the series: another box's is 400 duplicate. */
async function assertInvoiceCodeFree(tx: Em, seriesId: string, boxId: string, invoiceCode: string): Promise<void> {
  const [taken] = await tx.execute<{ id: string }[]>(
    'select id from billing_box where series_id = ? and lower(invoice_code) = lower(?) and id <> ? limit 1', [seriesId, invoiceCode, boxId]);
  if (taken) throw new DomainError('duplicate', `invoice code ${invoiceCode} is the number of another document of the series`, { path: ['invoice_code'] });
}

export async function finalizeBox(em: Em, id: string, options: FinalizeOptions = {}): Promise<BoxData> {
  // A finalized box cannot be changed: an external document's date must be a real day, whichever
  // transport brings it (found by probing, 2026-11-29: GraphQL finalized a box dated 2026-02-30).
  if (options.upload && !parseDate(options.upload.invoiceDate)) {
    throw new InvalidInputError(`invoice_date must be ${DATE_FORMAT}`, { path: ['invoice_date'] });
  }
  await em.transactional(async (tx) => {
    const box = await lockBox(tx, id);
    const external = box.series.documentSource === 'external';
    const now = new Date();
    if (external) {
      if (!options.upload) {
        throw new DomainError('invalid_input', 'this series takes its documents from an external system: send the document with invoice_code and invoice_date',
          { path: [] });
      }
      await assertInvoiceCodeFree(tx, box.series.id, box.id, options.upload.invoiceCode);
      box.finalize(now, options.upload.invoiceCode, options.upload.invoiceDate, true);
      // The unique index decides between finalizes at once (the check above saw neither's code).
      await flushUnique(tx, { [INVOICE_CODE_UNIQUE]: ['invoice_code'] });
      box.keepExchangeRate((await boxDetails(tx, [box.id], { currentRate: true }))[0].foreignCurrencyTotals);
      const extension = options.upload.contentType === 'application/xml' ? 'xml' : 'pdf';
      await putDocument(tx, box.admin.id, box.id, {
        filename: `${options.upload.invoiceCode}.${extension}`, contentType: options.upload.contentType, bytes: options.upload.bytes, primary: true, draft: false,
      });
    } else {
      if (options.upload) throw new DomainError('invalid_input', 'this series renders its own documents: send no document', { path: [] });
      box.finalize(now, null, null, false);
      const admin = await billingAdmin(tx, box.admin.id);
      const issueDate = localTime(now, admin.timeZone).date;
      const [data] = await boxDetails(tx, [box.id]);
      // The rate the documents show: the box keeps it, whatever rate is set later.
      box.keepExchangeRate(data.foreignCurrencyTotals);
      const prepared = await prepareFinalDocuments(tx, data, issueDate, now);
      await deleteDrafts(tx, box.id);
      await options.beforeNumber?.();
      // From here to the commit the series' numbering is locked: keep it short. The number carries
      // the code read under that lock, not the one read with the box (a rename may have committed since).
      const number = await takeDocumentNumber(tx, box.series.id, Number(issueDate.slice(0, 4)));
      await options.numbered?.();
      const { model, files } = await prepared.complete(number);
      box.invoiceCode = number.code;
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
