// Renders a box's documents from its data: the PDF always, the EN 16931 UBL where the kind has
// one (purchase orders are PDF only). A draft (no number) is the preview.
import type { Em } from '../platform/orm.ts';
import { DomainError } from '../platform/errors.ts';
import { billingAdmin } from './billing-admin.ts';
import type { BoxData } from './billing-box.queries.ts';
import type { BillingDocument } from './document/billing-document.ts';
import { categoryDescriptions, customerPartyOf, documentModel } from './document/document-model.ts';
import { pdfBytes } from './document/pdf-document.ts';
import { ublXml } from './document/ubl-document.ts';
import type { StoredDocument } from './document-store.ts';

export async function boxDocumentModel(em: Em, box: BoxData, final: { number: string; issueDate: string } | null): Promise<BillingDocument> {
  const [admin, customer, categories] = await Promise.all([billingAdmin(em, box.adminId), customerPartyOf(em, box.partyId), categoryDescriptions(em, box.adminId)]);
  return documentModel({ box, admin, customer, categories, number: final?.number ?? null, issueDate: final?.issueDate ?? null });
}

export async function renderPreview(em: Em, box: BoxData): Promise<Buffer> {
  return pdfBytes(await boxDocumentModel(em, box, null));
}

/** The final documents: `<number>.pdf` (primary) and `<number>.xml`. */
export async function renderFinalDocuments(em: Em, box: BoxData, number: string, issueDate: string): Promise<{ model: BillingDocument; files: StoredDocument[] }> {
  const model = await boxDocumentModel(em, box, { number, issueDate });
  // The seller of a self-billing invoice is the customer: the categories S, Z, E and AE need the
  // seller's VAT identifier (EN 16931 BR-S-02, BR-Z-02, BR-E-02, BR-AE-02; the VAT directive art.
  // 226(3) too); a seller without one is billed as not subject to VAT (O) when every line is
  // exempt, else refused before any document is stored, in the finalize transaction, so no number is taken.
  if (model.kind === 'self_billing_invoice' && !model.seller.vat_number && model.lines.some((l) => l.vat_category !== 'O')) {
    throw new DomainError('invalid_input',
      `a self-billing invoice names the customer as seller: customer ${box.partyId} needs a VAT number (custom_fields.vat_number) unless all its lines are exempt`, { path: [] });
  }
  const files: StoredDocument[] = [{ filename: `${number}.pdf`, contentType: 'application/pdf', bytes: await pdfBytes(model), primary: true, draft: false }];
  if (model.kind !== 'purchase_order') {
    files.push({ filename: `${number}.xml`, contentType: 'application/xml', bytes: Buffer.from(ublXml(model), 'utf8'), primary: false, draft: false });
  }
  return { model, files };
}
