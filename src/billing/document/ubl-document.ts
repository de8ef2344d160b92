// TEMPORARY STUB (replaced by the ubl branch)
import type { BillingDocument } from './billing-document.ts';
export function ublXml(doc: BillingDocument): string { return `<Invoice>${doc.number}</Invoice>`; }
