// Renders a box's documents from its data: the PDF always, the EN 16931 UBL where the kind has
// one (purchase orders are PDF only). A draft (no number) is the preview. Finalize renders in two
// steps (prepareFinalDocuments, then complete): everything is laid out before the number is taken,
// so the series' number stays locked only while the number, the payment reference and the page
// footers are drawn and the bytes written (decisions: "Billing", numbers).
import type { Em } from '../platform/orm.ts';
import { billingAdmin } from './billing-admin.ts';
import type { BoxData } from './billing-box.queries.ts';
import { billingLogoOf } from './billing-logo.service.ts';
import { annexCsv, annexFilename, MAX_EMBEDDED_ANNEX_BYTES } from './document/annex-csv.ts';
import type { BillingDocument } from './document/billing-document.ts';
import { paymentReferenceOf, type DocumentNumber } from './document/creditor-reference.ts';
import { documentItems } from './document/document-items.ts';
import { assertIssuable } from './document/issuable.ts';
import { categoryDescriptions, customerPartyOf, documentModel, mandateOf, withNumber } from './document/document-model.ts';
import { layoutPdf, pdfBytes } from './document/pdf-document.ts';
import { ublXml } from './document/ubl-document.ts';
import type { StoredDocument } from './document-store.ts';

/**
 * The model of a box's document: a draft (`issueDate` null) or a final one whose number comes later.
 * `at`: the moment it is made (a final one's: its finalize), at which the customer's mandate is in
 * force (the start of the issue day named a mandate replaced since).
 */
export async function boxDocumentModel(em: Em, box: BoxData, issueDate: string | null, at = new Date()): Promise<BillingDocument> {
  const admin = await billingAdmin(em, box.adminId);
  const [customer, categories, items, mandate, logo] = await Promise.all([
    customerPartyOf(em, box.partyId), categoryDescriptions(em, box.adminId), documentItems(em, box.id),
    box.partyKind === 'customer' ? mandateOf(em, box.partyId, at) : null, billingLogoOf(em, box.adminId),
  ]);
  return documentModel({ box, admin, customer, categories, items, mandate, logo, number: null, issueDate, final: issueDate !== null });
}

export async function renderPreview(em: Em, box: BoxData): Promise<Buffer> {
  return pdfBytes(await boxDocumentModel(em, box, null));
}

export interface PreparedDocuments {
  model: BillingDocument;
  /** With the number taken: draws it and answers the final files. */
  complete(number: DocumentNumber): Promise<{ model: BillingDocument; files: StoredDocument[] }>;
}

/**
 * Lays out the final documents of a box before its number is taken (the finalize transaction, the
 * box locked): checks that the document may be issued (document/issuable.ts), reads every item, lays out every page and
 * writes the annex CSV. `complete` then fills in the number.
 */
export async function prepareFinalDocuments(em: Em, box: BoxData, issueDate: string, at: Date): Promise<PreparedDocuments> {
  const model = await boxDocumentModel(em, box, issueDate, at);
  assertIssuable(model, box);
  const layout = await layoutPdf(model);
  const csv = model.annex.length ? annexCsv(model) : null;
  return {
    model,
    complete: async (number) => {
      const final = withNumber(model, number.code, paymentReferenceOf(number));
      const files: StoredDocument[] = [{
        filename: `${number.code}.pdf`, contentType: 'application/pdf', primary: true, draft: false,
        bytes: await layout.finish({ number: final.number, payment_reference: final.payment_reference }),
      }];
      if (final.kind !== 'purchase_order') {
        // An annex too large to embed in the UBL is stored beside it and referenced.
        const large = csv !== null && csv.length > MAX_EMBEDDED_ANNEX_BYTES;
        const location = `/main/v1/billing-box/${box.id}/document/${annexFilename(number.code)}`;
        files.push({ filename: `${number.code}.xml`, contentType: 'application/xml', primary: false, draft: false,
          bytes: Buffer.from(await ublXml(final, { annex: csv ?? undefined, annexLocation: location }), 'utf8') });
        if (large) files.push({ filename: annexFilename(number.code), contentType: 'text/csv', primary: false, draft: false, bytes: csv });
      }
      return { model: final, files };
    },
  };
}
