import { callerScope } from '../access/admin-scope.ts';
import { assertMayChangeInstanceWide } from '../access/instance-wide.ts';
import { compareDecimal, isNegative, isZero, normalize, parseDecimal } from '../money/decimal.ts';
import { DomainError, InvalidInputError, NotFoundError } from '../platform/errors.ts';
import { fieldLabel } from '../platform/field-path.ts';
import { isUuid } from '../platform/ids.ts';
import type { Patch } from '../platform/merge-patch.ts';
import type { Em } from '../platform/orm.ts';
import { assertValidityOrdered, overlapping, validAt } from '../platform/validity.ts';
import { VatRate, type VatKind } from './vat-rate.entity.ts';
import { vatRateData, type VatRateData } from './vat-rate.queries.ts';

export interface VatRateFields {
  country: string;
  vatKind: VatKind;
  percentage: string;
  validFrom: Date;
  validUntil: Date;
}

/** The rate applied to a line: a stored rate, or 0 % for exempt and reverse charge (id null). */
export interface AppliedVatRate {
  id: string | null;
  country: string;
  vatKind: VatKind;
  percentage: string;
}

const ZERO_KINDS: VatKind[] = ['exempt', 'reverse_charge'];

/** The rate to change (reads: vat-rate.queries.ts). */
async function loadVatRate(em: Em, id: string): Promise<VatRate> {
  const rate = isUuid(id) ? await em.findOne(VatRate, { id }) : null;
  if (!rate) throw new NotFoundError('VAT rate');
  return rate;
}

function checkPercentage(value: string): string {
  const percentage = parseDecimal(value, ['percentage']);
  if (isNegative(percentage) || compareDecimal(percentage, '100') > 0) {
    throw new InvalidInputError('percentage must be between 0 and 100', { path: ['percentage'] });
  }
  // EN 16931 reads a rate below 0.5 % as 0 % (BR-CO-17 rounds it): its VAT could never be invoiced.
  if (!isZero(percentage) && compareDecimal(percentage, '0.5') < 0) {
    throw new InvalidInputError('percentage must be 0 or at least 0.5 (an e-invoice takes a rate below 0.5 % as 0 %)', { path: ['percentage'] });
  }
  return normalize(percentage);
}

async function assertNoOverlap(em: Em, rate: VatRate): Promise<void> {
  const other = await em.findOne(VatRate, {
    country: rate.country,
    vatKind: rate.vatKind,
    ...(rate.id ? { id: { $ne: rate.id } } : {}),
    ...overlapping(rate.validFrom, rate.validUntil),
  });
  if (other) {
    throw new DomainError('overlapping_vat_rate', `the validity overlaps VAT rate ${other.id} of the same country and kind`, { path: ['valid_from'] });
  }
}

function apply(rate: VatRate, patch: Patch<VatRateFields>): void {
  if (patch.country !== undefined) rate.country = patch.country!.toUpperCase();
  if (patch.vatKind !== undefined) rate.vatKind = patch.vatKind!;
  if (patch.percentage !== undefined) rate.percentage = checkPercentage(patch.percentage!);
  if (patch.validFrom !== undefined) rate.validFrom = patch.validFrom!;
  if (patch.validUntil !== undefined) rate.validUntil = patch.validUntil;
  assertValidityOrdered(rate.validFrom, rate.validUntil);
}

/** Changes of VAT rates are serialized (advisory lock): concurrent overlapping rates cannot both pass. */
async function lockVatRates(em: Em): Promise<void> {
  await em.getConnection().execute("select pg_advisory_xact_lock(hashtext('pricing_vat_rate'))", [], 'all', em.getTransactionContext());
}

export async function createVatRate(em: Em, patch: Patch<VatRateFields>): Promise<VatRateData> {
  assertMayChangeInstanceWide(callerScope(em), 'VAT rates');
  for (const [field, path] of [['country', ['country']], ['vatKind', ['vat_kind']], ['percentage', ['percentage']], ['validFrom', ['valid_from']]] as const) {
    if (patch[field] === undefined || patch[field] === null) throw new InvalidInputError(`${fieldLabel(path)} is required`, { path });
  }
  return vatRateData(await em.transactional(async (tx) => {
    await lockVatRates(tx);
    const rate = tx.create(VatRate, { country: 'XX', vatKind: 'standard', percentage: '0', validFrom: new Date() });
    apply(rate, patch);
    await assertNoOverlap(tx, rate);
    await tx.flush();
    return rate;
  }));
}

export async function updateVatRate(em: Em, id: string, patch: Patch<VatRateFields>): Promise<VatRateData> {
  assertMayChangeInstanceWide(callerScope(em), 'VAT rates');
  for (const [field, path] of [['country', ['country']], ['vatKind', ['vat_kind']], ['percentage', ['percentage']], ['validFrom', ['valid_from']]] as const) {
    if (patch[field] === null) throw new InvalidInputError(`${fieldLabel(path)} cannot be removed`, { path });
  }
  return vatRateData(await em.transactional(async (tx) => {
    await lockVatRates(tx);
    const rate = await loadVatRate(tx, id);
    apply(rate, patch);
    await assertNoOverlap(tx, rate);
    await tx.flush();
    return rate;
  }));
}

/** Every kind's rate of a country at a moment, in one query (exempt and reverse charge: 0 %). */
export async function vatRatesAt(em: Em, country: string, at: Date): Promise<Map<VatKind, AppliedVatRate>> {
  const upper = country.toUpperCase();
  const rates = await em.find(VatRate, { country: upper, ...validAt(at) });
  const byKind = new Map<VatKind, AppliedVatRate>(rates.map((r) => [r.vatKind, { id: r.id, country: r.country, vatKind: r.vatKind, percentage: normalize(r.percentage) }]));
  for (const kind of ZERO_KINDS) byKind.set(kind, { id: null, country: upper, vatKind: kind, percentage: '0.00' });
  return byKind;
}

/** The VAT rate of a country and kind at a moment; exempt and reverse charge are 0 %. */
export async function vatRateAt(em: Em, country: string, kind: VatKind, at: Date): Promise<AppliedVatRate> {
  const upper = country.toUpperCase();
  if (ZERO_KINDS.includes(kind)) return { id: null, country: upper, vatKind: kind, percentage: '0.00' };
  const rate = await em.findOne(VatRate, {
    country: upper, vatKind: kind, ...validAt(at),
  });
  if (!rate) throw new DomainError('vat_rate_missing', `no ${kind} VAT rate of ${upper} is valid at ${at.toISOString()}`);
  return { id: rate.id, country: rate.country, vatKind: rate.vatKind, percentage: normalize(rate.percentage) };
}
