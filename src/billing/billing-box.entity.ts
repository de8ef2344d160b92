import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { DomainError } from '../platform/errors.ts';
import { Administration } from '../parties/administration.entity.ts';
import { BillingSeries, negatesDocumentAmounts } from './billing-series.entity.ts';
import { ReviewSet } from './review-set.entity.ts';
import { recordsEvents } from '../events/event-kinds.ts';

export const BOX_STATES = ['open', 'closed', 'approved', 'ready', 'finalized'] as const;
export type BoxState = (typeof BOX_STATES)[number];
export const PARTY_KINDS = ['customer', 'roaming_partner'] as const;
export type PartyKind = (typeof PARTY_KINDS)[number];

/** Optional inputs of close and approve. */
export interface PaymentOptions {
  paymentMethod?: string | null;
  paymentPeriodDays?: number | null;
  billingReference?: string | null;
}

const refuse = (box: BillingBox, action: string): never => {
  throw new DomainError('invalid_state', `cannot ${action} a box that is ${box.deferred ? 'deferred and ' : ''}${box.state}`);
};

/**
 * The content of one billing document: one party, one period, one series, one VAT country, one
 * currency. Items are added only while it is open; nothing changes once it is finalized.
 */
export const BillingBoxSchema = defineEntity({
  name: 'BillingBox',
  tableName: 'billing_box',
  filters: adminScopeFilter('admin'),
  // The sequence is unique within its review-set (box-numbering-lock.ts serializes who numbers).
  // An invoice code numbers one document of its series, in any casing (finalize-box.service.ts).
  uniques: [{ properties: ['series', 'partyId', 'periodFrom', 'vatCountry', 'currency', 'distinctCode'] }, { properties: ['reviewSet', 'reviewSetSequence'] }, {
    name: 'billing_box_series_invoice_code_unique',
    expression: 'create unique index "billing_box_series_invoice_code_unique" on "billing_box" ("series_id", lower("invoice_code")) where "invoice_code" is not null',
  }],
  indexes: [{ properties: ['reviewSet', 'id'] }, { properties: ['partyId', 'id'] }, { properties: ['admin', 'id'] }],
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(Administration),
    series: () => p.manyToOne(BillingSeries),
    reviewSet: () => p.manyToOne(ReviewSet),
    reviewSetSequence: p.integer(),
    partyKind: p.enum(PARTY_KINDS).default('customer'),
    partyId: p.uuid(),
    periodFrom: p.datetime(),
    periodUntil: p.datetime(),
    vatCountry: p.string().length(2),
    currency: p.string().length(3),
    /** Custom items may ask for a box of their own (box_distinct_code); '' otherwise. */
    distinctCode: p.string().default(''),
    state: p.enum(BOX_STATES).default('open'),
    deferred: p.boolean().default(false),
    transferred: p.boolean().default(false),
    localeId: p.string().nullable(),
    rollupGroupBy: p.string().default('product'),
    negateDocumentAmounts: p.boolean().default(false),
    billingReference: p.string().nullable(),
    paymentMethod: p.string().nullable(),
    paymentPeriodDays: p.integer().nullable(),
    invoiceCode: p.string().nullable(),
    invoiceDate: p.string().nullable(),
    documentKind: p.string().nullable(),
    /** Finalized: the VAT accounting currency and rate its documents were issued with (null: none), kept as issued. */
    vatAccountingCurrency: p.string().length(3).nullable(),
    vatExchangeRate: p.decimal('string').precision(20).scale(6).nullable(),
    closedAt: p.datetime().nullable(),
    approvedAt: p.datetime().nullable(),
    finalizedAt: p.datetime().nullable(),
    transferredAt: p.datetime().nullable(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class BillingBox extends BillingBoxSchema.class {
  private applyPayment(options: PaymentOptions): void {
    if (options.paymentMethod !== undefined) this.paymentMethod = options.paymentMethod;
    if (options.paymentPeriodDays !== undefined) this.paymentPeriodDays = options.paymentPeriodDays;
    if (options.billingReference !== undefined) this.billingReference = options.billingReference;
  }

  close(now: Date, options: PaymentOptions = {}): void {
    if (this.state !== 'open') refuse(this, 'close');
    this.state = 'closed';
    this.closedAt = now;
    this.applyPayment(options);
  }

  approve(now: Date, options: PaymentOptions = {}): void {
    if (this.state !== 'closed' || this.deferred) refuse(this, 'approve');
    this.state = 'approved';
    this.approvedAt = now;
    this.applyPayment(options);
  }

  /** The worker rendered the draft of the primary document. */
  markReady(): void {
    if (this.state !== 'approved') refuse(this, 'mark ready');
    this.state = 'ready';
  }

  /**
   * From ready; from approved only when an external system supplies the documents. Whether its
   * documents show the amounts negated is fixed here, by the series' document type now (the series
   * loaded): a box kept what its series said when the box was created. A box whose documents the
   * service renders gets its code and date when its number is taken, in the same transaction (null until then).
   */
  finalize(now: Date, invoiceCode: string | null, invoiceDate: string | null, external: boolean): void {
    if (!(this.state === 'ready' || (external && this.state === 'approved'))) refuse(this, 'finalize');
    this.negateDocumentAmounts = negatesDocumentAmounts(this.series.primaryDocumentType);
    this.state = 'finalized';
    this.finalizedAt = now;
    this.invoiceCode = invoiceCode;
    this.invoiceDate = invoiceDate;
  }

  /** The foreign currency totals its documents were issued with (at finalize). */
  keepExchangeRate(foreign: { currency: string; rate: string } | null): void {
    if (this.state !== 'finalized') refuse(this, 'keep the exchange rate of');
    this.vatAccountingCurrency = foreign?.currency ?? null;
    this.vatExchangeRate = foreign?.rate ?? null;
  }

  reopen(): void {
    if (!['closed', 'approved', 'ready'].includes(this.state)) refuse(this, 'reopen');
    this.state = 'open';
    this.deferred = false;
    this.closedAt = null;
    this.approvedAt = null;
  }

  /** A box of a closed review-set is deferred (spec), so the rest of the set is approved without it; its set loaded. */
  defer(): void {
    if (this.state !== 'closed') refuse(this, 'defer');
    if (this.reviewSet.state !== 'closed') {
      throw new DomainError('invalid_state', `the box's review-set is ${this.reviewSet.state}: only a box of a closed review-set is deferred`);
    }
    this.deferred = true;
  }

  undefer(): void {
    if (this.state !== 'closed' || !this.deferred) refuse(this, 'undefer');
    this.deferred = false;
  }

  markTransferred(now: Date): void {
    if (this.state !== 'finalized') refuse(this, 'mark transferred');
    if (this.transferred) return;
    this.transferred = true;
    this.transferredAt = now;
  }
}
BillingBoxSchema.setClass(BillingBox);
recordsEvents(BillingBox, 'billing_box');
