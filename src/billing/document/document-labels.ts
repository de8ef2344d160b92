// Every text a billing document prints, per language (en, nl, de, fr; anything else falls back to
// en), in one table: a test walks its keys and checks each is there, filled, in all four languages.
// Placeholders are {name}, filled by `fill`. Amounts and dates are written for display from their
// exact strings (never through Number).
import type { DocumentKind } from './billing-document.ts';

export const DOCUMENT_LANGUAGES = ['en', 'nl', 'de', 'fr'] as const;
export type DocumentLanguage = (typeof DOCUMENT_LANGUAGES)[number];

export interface Labels {
  titles: Record<DocumentKind, string>;
  draft: string;
  number: string;
  issueDate: string;
  dueDate: string;
  period: string;
  /** The buyer's own reference (BT-10), shown only when the box has a billing reference. */
  reference: string;
  customerNumber: string;
  seller: string;
  buyer: string;
  vatNumber: string;
  companyReg: string;
  description: string;
  vat: string;
  net: string;
  vatSummary: string;
  taxable: string;
  totalNet: string;
  totalVat: string;
  totalGross: string;
  taxCurrency: string;
  /** "Page {n} of {m}", on every page. */
  page: string;
  /** VAT exemption texts (BT-120), by EN 16931 category. */
  exemption: { E: string; AE: string; O: string };
  payment: {
    title: string;
    method: string;
    methods: { bank_transfer: string; direct_debit: string; card: string; other: string };
    /** Payment terms with {days}. */
    terms: string;
    payTo: string;
    reference: string;
    mandate: string;
    debitedAccount: string;
    /** A bank transfer: what to do (the reference stands on its own line). */
    transferNote: string;
    directDebitNote: string;
    cardNote: string;
    /** A credit note: what happens to the amount. */
    creditNote: string;
    /** A self-billing invoice: the issuer (the buyer) pays the seller. */
    selfBillingNote: string;
    /** A self-billed credit note by bank transfer: the seller (the box's party) pays the issuer. */
    selfBillingCreditNote: string;
  };
  /** A self-billing invoice: the party headings (the customer sells, the administration buys and
   * issues) and the mention the VAT directive asks for (art. 226(10a)). */
  selfBilling: { seller: string; buyer: string; note: string };
  /** What the lines of the built-in product categories are called. */
  categories: { charging: string; subscription_fee: string; cpo_subscription_fee: string; custom: string; cpo_reimbursement: string; roaming: string };
  lines: {
    /** "{n} sessions"; one session: sessionOne. */
    sessions: string;
    sessionOne: string;
    reversals: string;
    reversalOne: string;
    /** A reversed item's line: "{what}" after this prefix. */
    reversal: string;
    /** A period of local dates, both inclusive. */
    fromTo: string;
    /** A fee prorated by days. */
    partialDays: string;
    /** More item names than a line lists. */
    more: string;
  };
  annex: {
    title: string;
    intro: string;
    start: string;
    location: string;
    token: string;
    energy: string;
    duration: string;
    amount: string;
    subtotal: string;
    reversal: string;
    /** The UBL's annex reference (BT-123). */
    documentDescription: string;
  };
}

const en: Labels = {
  titles: { invoice: 'Invoice', credit_note: 'Credit note', debit_note: 'Debit note', self_billing_invoice: 'Self-billing invoice', self_billing_credit_note: 'Self-billed credit note', purchase_order: 'Purchase order' },
  draft: 'DRAFT - not a valid invoice', number: 'Number', issueDate: 'Date', dueDate: 'Due date', period: 'Period', reference: 'Your reference',
  customerNumber: 'Customer number', seller: 'From', buyer: 'To', vatNumber: 'VAT number', companyReg: 'Company reg.', description: 'Description',
  vat: 'VAT', net: 'Amount', vatSummary: 'VAT summary', taxable: 'Taxable amount',
  totalNet: 'Total excl. VAT', totalVat: 'VAT', totalGross: 'Total incl. VAT', taxCurrency: 'VAT in', page: 'Page {n} of {m}',
  exemption: { E: 'Exempt from VAT', AE: 'Reverse charge: VAT due by the customer', O: 'Not subject to VAT' },
  payment: {
    title: 'Payment', method: 'Payment method',
    methods: { bank_transfer: 'Bank transfer', direct_debit: 'Direct debit', card: 'Card payment', other: 'Other payment method' },
    terms: 'Payment within {days} days', payTo: 'Pay to', reference: 'Payment reference', mandate: 'Mandate reference', debitedAccount: 'Debited account',
    transferNote: 'Please transfer the total by the due date and quote the payment reference.',
    directDebitNote: 'The total will be debited from your account on or after the due date.',
    cardNote: 'The total will be charged to your card.',
    creditNote: 'This amount will be refunded to you or offset against an open invoice.',
    selfBillingNote: 'We will transfer the total to you by the due date.',
    selfBillingCreditNote: 'This corrects what we billed on your behalf: please transfer the total to us by the due date and quote the payment reference.',
  },
  selfBilling: { seller: 'Seller (supplier)', buyer: 'Buyer (issuer of this invoice)', note: 'Self-billing: issued by the buyer in the name and on behalf of the seller' },
  categories: {
    charging: 'Charging sessions', subscription_fee: 'Subscription fees', cpo_subscription_fee: 'Charge point subscription fees', custom: 'Other items',
    cpo_reimbursement: 'Reimbursed charging sessions', roaming: 'Roaming charging sessions',
  },
  lines: {
    sessions: '{n} sessions', sessionOne: '1 session', reversals: '{n} reversals', reversalOne: '1 reversal', reversal: 'Reversal',
    fromTo: '{from} to {to}', partialDays: '{days}/{of} days', more: '+ {n} more',
  },
  annex: {
    title: 'Annex: charging sessions', intro: 'The sessions of each line; the subtotal of a line is its amount.',
    start: 'Start', location: 'Location / EVSE', token: 'Card', energy: 'kWh', duration: 'Duration', amount: 'Amount excl. VAT', subtotal: 'Subtotal',
    reversal: 'reversal', documentDescription: 'Charging sessions of the invoice lines',
  },
};

const nl: Labels = {
  titles: { invoice: 'Factuur', credit_note: 'Creditnota', debit_note: 'Debetnota', self_billing_invoice: 'Factuur uitgereikt door afnemer', self_billing_credit_note: 'Creditnota uitgereikt door afnemer', purchase_order: 'Inkooporder' },
  draft: 'CONCEPT - geen geldige factuur', number: 'Nummer', issueDate: 'Datum', dueDate: 'Vervaldatum', period: 'Periode', reference: 'Uw referentie',
  customerNumber: 'Klantnummer', seller: 'Van', buyer: 'Aan', vatNumber: 'Btw-nummer', companyReg: 'KvK', description: 'Omschrijving',
  vat: 'Btw', net: 'Bedrag', vatSummary: 'Btw-overzicht', taxable: 'Grondslag',
  totalNet: 'Totaal excl. btw', totalVat: 'Btw', totalGross: 'Totaal incl. btw', taxCurrency: 'Btw in', page: 'Pagina {n} van {m}',
  exemption: { E: 'Vrijgesteld van btw', AE: 'Btw verlegd', O: 'Niet onderworpen aan btw' },
  payment: {
    title: 'Betaling', method: 'Betaalwijze',
    methods: { bank_transfer: 'Overboeking', direct_debit: 'Automatische incasso', card: 'Betaling per pas', other: 'Andere betaalwijze' },
    terms: 'Betaling binnen {days} dagen', payTo: 'Rekening', reference: 'Betalingskenmerk', mandate: 'Machtigingskenmerk', debitedAccount: 'Af te schrijven van',
    transferNote: 'Maak het totaal uiterlijk op de vervaldatum over, met vermelding van het betalingskenmerk.',
    directDebitNote: 'Het totaal wordt op of na de vervaldatum van uw rekening afgeschreven.',
    cardNote: 'Het totaal wordt van uw pas afgeschreven.',
    creditNote: 'Dit bedrag wordt aan u terugbetaald of verrekend met een openstaande factuur.',
    selfBillingNote: 'Wij maken het totaal uiterlijk op de vervaldatum aan u over.',
    selfBillingCreditNote: 'Dit corrigeert wat wij namens u hebben gefactureerd: maak het totaal uiterlijk op de vervaldatum aan ons over, met vermelding van het betalingskenmerk.',
  },
  selfBilling: { seller: 'Leverancier', buyer: 'Afnemer (uitreiker van deze factuur)', note: 'Uitgereikt door de afnemer in naam en voor rekening van de leverancier' },
  categories: {
    charging: 'Laadsessies', subscription_fee: 'Abonnementskosten', cpo_subscription_fee: 'Abonnementskosten laadpunten', custom: 'Overige posten',
    cpo_reimbursement: 'Vergoeding laadsessies', roaming: 'Roaming-laadsessies',
  },
  lines: {
    sessions: '{n} sessies', sessionOne: '1 sessie', reversals: '{n} correcties', reversalOne: '1 correctie', reversal: 'Correctie',
    fromTo: '{from} t/m {to}', partialDays: '{days}/{of} dagen', more: '+ {n} meer',
  },
  annex: {
    title: 'Bijlage: laadsessies', intro: 'De sessies van elke regel; het subtotaal van een regel is het bedrag van die regel.',
    start: 'Aanvang', location: 'Locatie / laadpunt', token: 'Laadpas', energy: 'kWh', duration: 'Duur', amount: 'Bedrag excl. btw', subtotal: 'Subtotaal',
    reversal: 'correctie', documentDescription: 'Laadsessies van de factuurregels',
  },
};

const de: Labels = {
  titles: { invoice: 'Rechnung', credit_note: 'Gutschrift', debit_note: 'Lastschrift', self_billing_invoice: 'Gutschrift (Selbstfakturierung)', self_billing_credit_note: 'Korrektur der Gutschrift (Selbstfakturierung)', purchase_order: 'Bestellung' },
  draft: 'ENTWURF - keine gültige Rechnung', number: 'Nummer', issueDate: 'Datum', dueDate: 'Fällig am', period: 'Zeitraum', reference: 'Ihre Referenz',
  customerNumber: 'Kundennummer', seller: 'Von', buyer: 'An', vatNumber: 'USt-IdNr.', companyReg: 'Handelsregister', description: 'Beschreibung',
  vat: 'USt', net: 'Betrag', vatSummary: 'USt-Übersicht', taxable: 'Bemessungsgrundlage',
  totalNet: 'Summe netto', totalVat: 'USt', totalGross: 'Summe brutto', taxCurrency: 'USt in', page: 'Seite {n} von {m}',
  exemption: { E: 'Steuerfrei', AE: 'Steuerschuldnerschaft des Leistungsempfängers', O: 'Nicht steuerbar' },
  payment: {
    title: 'Zahlung', method: 'Zahlungsart',
    methods: { bank_transfer: 'Überweisung', direct_debit: 'SEPA-Lastschrift', card: 'Kartenzahlung', other: 'Andere Zahlungsart' },
    terms: 'Zahlbar innerhalb von {days} Tagen', payTo: 'Bankverbindung', reference: 'Zahlungsreferenz', mandate: 'Mandatsreferenz', debitedAccount: 'Belastetes Konto',
    transferNote: 'Bitte überweisen Sie den Gesamtbetrag bis zum Fälligkeitsdatum unter Angabe der Zahlungsreferenz.',
    directDebitNote: 'Der Gesamtbetrag wird am oder nach dem Fälligkeitsdatum von Ihrem Konto eingezogen.',
    cardNote: 'Der Gesamtbetrag wird Ihrer Karte belastet.',
    creditNote: 'Dieser Betrag wird Ihnen erstattet oder mit einer offenen Rechnung verrechnet.',
    selfBillingNote: 'Wir überweisen Ihnen den Gesamtbetrag bis zum Fälligkeitsdatum.',
    selfBillingCreditNote: 'Dies korrigiert, was wir in Ihrem Namen abgerechnet haben: Bitte überweisen Sie uns den Gesamtbetrag bis zum Fälligkeitsdatum unter Angabe der Zahlungsreferenz.',
  },
  selfBilling: { seller: 'Leistender (Lieferant)', buyer: 'Leistungsempfänger (Aussteller)', note: 'Gutschrift: vom Leistungsempfänger im Namen und für Rechnung des Leistenden ausgestellt' },
  categories: {
    charging: 'Ladevorgänge', subscription_fee: 'Abonnementgebühren', cpo_subscription_fee: 'Abonnementgebühren Ladepunkte', custom: 'Sonstige Posten',
    cpo_reimbursement: 'Erstattete Ladevorgänge', roaming: 'Roaming-Ladevorgänge',
  },
  lines: {
    sessions: '{n} Ladevorgänge', sessionOne: '1 Ladevorgang', reversals: '{n} Stornos', reversalOne: '1 Storno', reversal: 'Storno',
    fromTo: '{from} bis {to}', partialDays: '{days}/{of} Tage', more: '+ {n} weitere',
  },
  annex: {
    title: 'Anlage: Ladevorgänge', intro: 'Die Ladevorgänge jeder Position; die Zwischensumme einer Position ist ihr Betrag.',
    start: 'Beginn', location: 'Standort / Ladepunkt', token: 'Ladekarte', energy: 'kWh', duration: 'Dauer', amount: 'Betrag netto', subtotal: 'Zwischensumme',
    reversal: 'Storno', documentDescription: 'Ladevorgänge der Rechnungspositionen',
  },
};

const fr: Labels = {
  titles: { invoice: 'Facture', credit_note: 'Avoir', debit_note: 'Note de débit', self_billing_invoice: 'Autofacture', self_billing_credit_note: "Avoir d'autofacturation", purchase_order: 'Bon de commande' },
  draft: 'BROUILLON - facture non valable', number: 'Numéro', issueDate: 'Date', dueDate: 'Échéance', period: 'Période', reference: 'Votre référence',
  customerNumber: 'N° client', seller: 'De', buyer: 'À', vatNumber: 'N° TVA', companyReg: 'SIREN', description: 'Désignation',
  vat: 'TVA', net: 'Montant', vatSummary: 'Récapitulatif TVA', taxable: 'Base',
  totalNet: 'Total HT', totalVat: 'TVA', totalGross: 'Total TTC', taxCurrency: 'TVA en', page: 'Page {n} sur {m}',
  exemption: { E: 'Exonéré de TVA', AE: 'Autoliquidation : TVA due par le preneur', O: 'Non soumis à la TVA' },
  payment: {
    title: 'Paiement', method: 'Mode de paiement',
    methods: { bank_transfer: 'Virement bancaire', direct_debit: 'Prélèvement SEPA', card: 'Paiement par carte', other: 'Autre mode de paiement' },
    terms: 'Paiement sous {days} jours', payTo: 'Compte bancaire', reference: 'Référence de paiement', mandate: 'Référence du mandat', debitedAccount: 'Compte débité',
    transferNote: "Merci de virer le total au plus tard à l'échéance en indiquant la référence de paiement.",
    directDebitNote: "Le total sera prélevé sur votre compte à partir de l'échéance.",
    cardNote: 'Le total sera débité de votre carte.',
    creditNote: 'Ce montant vous sera remboursé ou imputé sur une facture ouverte.',
    selfBillingNote: "Nous vous virerons le total au plus tard à l'échéance.",
    selfBillingCreditNote: "Ceci corrige ce que nous avons facturé en votre nom : merci de nous virer le total au plus tard à l'échéance en indiquant la référence de paiement.",
  },
  selfBilling: { seller: 'Fournisseur', buyer: 'Client (émetteur de la facture)', note: 'Autofacturation : facture émise par le client au nom et pour le compte du fournisseur' },
  categories: {
    charging: 'Sessions de recharge', subscription_fee: "Frais d'abonnement", cpo_subscription_fee: "Frais d'abonnement des bornes", custom: 'Autres postes',
    cpo_reimbursement: 'Sessions de recharge remboursées', roaming: 'Sessions de recharge en itinérance',
  },
  lines: {
    sessions: '{n} sessions', sessionOne: '1 session', reversals: '{n} annulations', reversalOne: '1 annulation', reversal: 'Annulation',
    fromTo: 'du {from} au {to}', partialDays: '{days}/{of} jours', more: '+ {n} autres',
  },
  annex: {
    title: 'Annexe : sessions de recharge', intro: "Les sessions de chaque ligne ; le sous-total d'une ligne est son montant.",
    start: 'Début', location: 'Lieu / point de charge', token: 'Badge', energy: 'kWh', duration: 'Durée', amount: 'Montant HT', subtotal: 'Sous-total',
    reversal: 'annulation', documentDescription: 'Sessions de recharge des lignes de la facture',
  },
};

export const LABELS: Record<DocumentLanguage, Labels> = { en, nl, de, fr };

/** The document's language: the first two letters of a locale when one of the four, else en. */
export function documentLanguage(locale: string | null | undefined): DocumentLanguage {
  const language = (locale ?? 'en').slice(0, 2).toLowerCase();
  return (DOCUMENT_LANGUAGES as readonly string[]).includes(language) ? language as DocumentLanguage : 'en';
}

export const labelsFor = (locale: string): Labels => LABELS[documentLanguage(locale)];

/**
 * The label of a stored value (a payment method, a product category code) when the dictionary has it
 * as its own: any text may have been stored, and `constructor` or `toString` is a member of every object.
 */
export function labelOf(labels: Readonly<Record<string, string>>, key: string | null | undefined): string | undefined {
  return key != null && Object.hasOwn(labels, key) ? labels[key] : undefined;
}

/** A label with its {placeholders} filled. */
export function fill(label: string, values: Record<string, string | number>): string {
  return label.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}

/** "1234.50" → "1,234.50" (en), "1.234,50" (nl, de), "1 234,50" (fr). */
export function formatAmount(amount: string, locale: string): string {
  const language = documentLanguage(locale);
  const negative = amount.startsWith('-');
  const [int, frac] = (negative ? amount.slice(1) : amount).split('.');
  const [group, decimal] = language === 'en' ? [',', '.'] : language === 'fr' ? [' ', ','] : ['.', ','];
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${negative ? '-' : ''}${grouped}${frac !== undefined ? decimal + frac : ''}`;
}

/** YYYY-MM-DD → 02-11-2026 (nl, de with dots, fr with slashes); en keeps ISO. */
export function formatDate(date: string, locale: string): string {
  const [y, m, d] = date.split('-');
  const language = documentLanguage(locale);
  if (language === 'nl') return `${d}-${m}-${y}`;
  if (language === 'de') return `${d}.${m}.${y}`;
  if (language === 'fr') return `${d}/${m}/${y}`;
  return date;
}

/** A local date and time "YYYY-MM-DD HH:MM" written as the language writes dates. */
export function formatDateTime(local: string, locale: string): string {
  const [date, time] = local.split(' ');
  return time ? `${formatDate(date, locale)} ${time}` : formatDate(date, locale);
}

/** Whole minutes as h:mm. */
export function formatDuration(minutes: number): string {
  const m = Math.max(0, Math.round(minutes));
  return `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}`;
}
