// TEMPORARY STUB (replaced by the pdf branch)
import type { BillingDocument } from './billing-document.ts';
export async function pdfBytes(doc: BillingDocument): Promise<Buffer> { return Buffer.from(`%PDF-stub ${JSON.stringify(doc)}`); }
