// The texts of a billing document per language (en, nl, de, fr; anything else falls back to en),
// and amounts and dates written for display from their exact strings (never through Number).
import type { DocumentKind } from './billing-document.ts';

export interface Labels {
  titles: Record<DocumentKind, string>;
  draft: string;
  number: string;
  issueDate: string;
  dueDate: string;
  period: string;
  reference: string;
  seller: string;
  buyer: string;
  vatNumber: string;
  companyReg: string;
  bankAccount: string;
  description: string;
  quantity: string;
  unitPrice: string;
  vat: string;
  net: string;
  vatSummary: string;
  taxable: string;
  totalNet: string;
  totalVat: string;
  totalGross: string;
  payment: string;
  taxCurrency: string;
  /** Payment terms with {days}. */
  terms: string;
  /** A self-billing invoice: the party headings (the customer sells, the administration buys and
   * issues) and the mention the VAT directive asks for (art. 226(10a)). */
  selfBilling: { seller: string; buyer: string; note: string };
}

const en: Labels = {
  titles: { invoice: 'Invoice', credit_note: 'Credit note', debit_note: 'Debit note', self_billing_invoice: 'Self-billing invoice', purchase_order: 'Purchase order' },
  draft: 'DRAFT - not a valid invoice', number: 'Number', issueDate: 'Date', dueDate: 'Due date', period: 'Period', reference: 'Your reference',
  seller: 'From', buyer: 'To', vatNumber: 'VAT number', companyReg: 'Company reg.', bankAccount: 'Bank account', description: 'Description',
  quantity: 'Quantity', unitPrice: 'Unit price', vat: 'VAT', net: 'Amount', vatSummary: 'VAT summary', taxable: 'Taxable amount',
  totalNet: 'Total excl. VAT', totalVat: 'VAT', totalGross: 'Total incl. VAT', payment: 'Payment', taxCurrency: 'VAT in', terms: 'Payment within {days} days',
  selfBilling: { seller: 'Seller (supplier)', buyer: 'Buyer (issuer of this invoice)', note: 'Self-billing: issued by the buyer in the name and on behalf of the seller' },
};

const nl: Labels = {
  titles: { invoice: 'Factuur', credit_note: 'Creditnota', debit_note: 'Debetnota', self_billing_invoice: 'Self-billing factuur', purchase_order: 'Inkooporder' },
  draft: 'CONCEPT - geen geldige factuur', number: 'Nummer', issueDate: 'Datum', dueDate: 'Vervaldatum', period: 'Periode', reference: 'Uw referentie',
  seller: 'Van', buyer: 'Aan', vatNumber: 'Btw-nummer', companyReg: 'KvK', bankAccount: 'Rekening', description: 'Omschrijving',
  quantity: 'Aantal', unitPrice: 'Prijs', vat: 'Btw', net: 'Bedrag', vatSummary: 'Btw-overzicht', taxable: 'Grondslag',
  totalNet: 'Totaal excl. btw', totalVat: 'Btw', totalGross: 'Totaal incl. btw', payment: 'Betaling', taxCurrency: 'Btw in', terms: 'Betaling binnen {days} dagen',
  selfBilling: { seller: 'Leverancier', buyer: 'Afnemer (uitreiker van deze factuur)', note: 'Factuur uitgereikt door afnemer (self-billing), in naam en voor rekening van de leverancier' },
};

const de: Labels = {
  titles: { invoice: 'Rechnung', credit_note: 'Gutschrift', debit_note: 'Lastschrift', self_billing_invoice: 'Gutschrift (Selbstfakturierung)', purchase_order: 'Bestellung' },
  draft: 'ENTWURF - keine gültige Rechnung', number: 'Nummer', issueDate: 'Datum', dueDate: 'Fällig am', period: 'Zeitraum', reference: 'Ihre Referenz',
  seller: 'Von', buyer: 'An', vatNumber: 'USt-IdNr.', companyReg: 'Handelsregister', bankAccount: 'Bankverbindung', description: 'Beschreibung',
  quantity: 'Menge', unitPrice: 'Preis', vat: 'USt', net: 'Betrag', vatSummary: 'USt-Übersicht', taxable: 'Bemessungsgrundlage',
  totalNet: 'Summe netto', totalVat: 'USt', totalGross: 'Summe brutto', payment: 'Zahlung', taxCurrency: 'USt in', terms: 'Zahlbar innerhalb von {days} Tagen',
  selfBilling: { seller: 'Leistender (Lieferant)', buyer: 'Leistungsempfänger (Aussteller)', note: 'Gutschrift: vom Leistungsempfänger im Namen und für Rechnung des Leistenden ausgestellt' },
};

const fr: Labels = {
  titles: { invoice: 'Facture', credit_note: 'Avoir', debit_note: 'Note de débit', self_billing_invoice: 'Autofacture', purchase_order: 'Bon de commande' },
  draft: 'BROUILLON - facture non valable', number: 'Numéro', issueDate: 'Date', dueDate: 'Échéance', period: 'Période', reference: 'Votre référence',
  seller: 'De', buyer: 'À', vatNumber: 'N° TVA', companyReg: 'SIREN', bankAccount: 'Compte bancaire', description: 'Description',
  quantity: 'Quantité', unitPrice: 'Prix unitaire', vat: 'TVA', net: 'Montant', vatSummary: 'Récapitulatif TVA', taxable: 'Base',
  totalNet: 'Total HT', totalVat: 'TVA', totalGross: 'Total TTC', payment: 'Paiement', taxCurrency: 'TVA en', terms: 'Paiement sous {days} jours',
  selfBilling: { seller: 'Fournisseur', buyer: 'Client (émetteur de la facture)', note: 'Autofacturation : facture émise par le client au nom et pour le compte du fournisseur' },
};

const LABELS: Record<string, Labels> = { en, nl, de, fr };

export const labelsFor = (locale: string): Labels => LABELS[locale] ?? en;

/** "1234.50" → "1,234.50" (en), "1.234,50" (nl, de), "1 234,50" (fr). */
export function formatAmount(amount: string, locale: string): string {
  const negative = amount.startsWith('-');
  const [int, frac] = (negative ? amount.slice(1) : amount).split('.');
  const [group, decimal] = locale === 'en' || !LABELS[locale] ? [',', '.'] : locale === 'fr' ? [' ', ','] : ['.', ','];
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${negative ? '-' : ''}${grouped}${frac !== undefined ? decimal + frac : ''}`;
}

/** YYYY-MM-DD → 02-11-2026 (nl, de with dots, fr with slashes); en keeps ISO. */
export function formatDate(date: string, locale: string): string {
  const [y, m, d] = date.split('-');
  if (locale === 'nl') return `${d}-${m}-${y}`;
  if (locale === 'de') return `${d}.${m}.${y}`;
  if (locale === 'fr') return `${d}/${m}/${y}`;
  return date;
}
