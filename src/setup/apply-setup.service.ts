// `setup apply`: creates or updates administrations, VAT rates, rate plans (with versions) and
// subscription plans from one document, in one transaction, through the services REST uses.
// Records are matched by their keys; one whose fields already match is left alone, so applying
// the same file twice changes nothing. A failure names its place in the file and changes nothing.
import { SubscriptionPlan } from '../msp/subscription-plan.entity.ts';
import { createSubscriptionPlan, upsertSubscriptionPlan, type SubscriptionPlanPatch } from '../msp/save-subscription-plan.service.ts';
import { normalize } from '../money/decimal.ts';
import { Administration } from '../parties/administration.entity.ts';
import { createAdministration } from '../parties/create-administration.service.ts';
import { DomainError, InvalidInputError } from '../platform/errors.ts';
import type { FieldPath } from '../platform/field-path.ts';
import type { Em } from '../platform/orm.ts';
import { checkedTimestamp } from '../platform/timestamp.ts';
import { parseDefinition } from '../pricing/rate-plan-definition.ts';
import { RatePlanVersion } from '../pricing/rate-plan-version.entity.ts';
import { RatePlan } from '../pricing/rate-plan.entity.ts';
import { createRatePlan, createRatePlanVersion, upsertRatePlan } from '../pricing/rate-plan.service.ts';
import { VatRate } from '../pricing/vat-rate.entity.ts';
import { createVatRate, updateVatRate } from '../pricing/vat-rate.service.ts';
import { assertNoRepeats, type KindCount, type SetupFile } from './setup-file.ts';
import { applyBilling, emptyBillingReport, type BillingReport } from './apply-billing-setup.ts';

export type SetupReport = Record<'administrations' | 'vat_rates' | 'rate_plans' | 'rate_plan_versions' | 'subscription_plans', KindCount> & BillingReport;

/** JSON with sorted keys: stored JSON (jsonb) does not keep the order of keys. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined).sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);
/**
 * An amount as it compares; text that is no decimal stays as it is, so that it compares unequal and
 * the service, which refuses it, names its place (normalizing it here failed without one).
 */
function comparable(amount: string): string {
  try {
    return normalize(amount);
  } catch {
    return amount;
  }
}
/** Values of a set (administration ids, rate components) as they compare: lower case, each once, sorted; the services store each once. */
const asSet = (values: readonly string[]) => [...new Set(values.map((v) => v.toLowerCase()))].sort();
const time = (value: string | null | undefined) => (value ? checkedTimestamp(value) : null);
const iso = (value: Date | null | undefined) => (value ? value.toISOString() : null);

/** Service errors name places in a request body: place them below the item of the file. */
async function at<T>(path: FieldPath, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError) throw new DomainError(error.code, error.message, { path: [...path, ...(error.fieldPath ?? [])] });
    throw error;
  }
}

function emptyReport(): SetupReport {
  const count = () => ({ created: 0, updated: 0, unchanged: 0 });
  return { administrations: count(), vat_rates: count(), rate_plans: count(), rate_plan_versions: count(), subscription_plans: count(), ...emptyBillingReport() };
}

async function applyAdministrations(em: Em, file: SetupFile, report: SetupReport): Promise<void> {
  for (const [i, a] of (file.administrations ?? []).entries()) {
    const path = ['administrations', i];
    const existing = await em.findOne(Administration, { id: a.id });
    if (!existing) {
      await at(path, () => createAdministration(em, { id: a.id, name: a.name, currency: a.currency, country: a.country, localeId: a.locale_id ?? null }));
      report.administrations.created++;
      continue;
    }
    if (existing.currency !== a.currency || existing.country !== a.country.toUpperCase()) {
      throw new InvalidInputError(`administration ${a.id} exists with currency ${existing.currency} and country ${existing.country}; these cannot change`, { path: [...path, 'currency'] });
    }
    if (existing.name === a.name && (existing.localeId ?? null) === (a.locale_id ?? null)) { report.administrations.unchanged++; continue; }
    existing.name = a.name;
    existing.localeId = a.locale_id ?? null;
    await em.flush();
    report.administrations.updated++;
  }
}

async function applyVatRates(em: Em, file: SetupFile, report: SetupReport): Promise<void> {
  for (const [i, r] of (file.vat_rates ?? []).entries()) {
    const path = ['vat_rates', i];
    const validFrom = checkedTimestamp(r.valid_from);
    const fields = { country: r.country.toUpperCase(), vatKind: r.vat_kind, percentage: r.percentage, validFrom, validUntil: time(r.valid_until) };
    const existing = await em.findOne(VatRate, { country: fields.country, vatKind: r.vat_kind, validFrom });
    if (!existing) {
      await at(path, () => createVatRate(em, fields));
      report.vat_rates.created++;
    } else if (comparable(existing.percentage) === comparable(r.percentage) && iso(existing.validUntil) === iso(fields.validUntil)) {
      report.vat_rates.unchanged++;
    } else {
      await at(path, () => updateVatRate(em, existing.id, { percentage: r.percentage, validUntil: fields.validUntil }));
      report.vat_rates.updated++;
    }
  }
}

async function applyRatePlans(em: Em, file: SetupFile, report: SetupReport): Promise<void> {
  for (const [i, plan] of (file.rate_plans ?? []).entries()) {
    const path = ['rate_plans', i];
    const adminIds = plan.admin_ids ?? [];
    let existing = await em.findOne(RatePlan, { externalReference: plan.external_reference });
    if (!existing) {
      existing = await at(path, () => createRatePlan(em, { name: plan.name, currency: plan.currency, adminIds, externalReference: plan.external_reference }));
      report.rate_plans.created++;
    } else if (existing.currency !== plan.currency) {
      throw new InvalidInputError(`rate plan ${plan.external_reference} is in ${existing.currency}; its currency cannot change`, { path: [...path, 'currency'] });
    } else if (existing.name === plan.name && same(asSet(existing.adminIds), asSet(adminIds))) {
      report.rate_plans.unchanged++;
    } else {
      await at(path, () => upsertRatePlan(em, { id: existing!.id }, { name: plan.name, adminIds }));
      report.rate_plans.updated++;
    }
    for (const [j, v] of (plan.versions ?? []).entries()) {
      const vPath = [...path, 'versions', j];
      const validFrom = checkedTimestamp(v.valid_from);
      const stored = await em.findOne(RatePlanVersion, { ratePlan: existing.id, validFrom });
      if (!stored) {
        await at(vPath, () => createRatePlanVersion(em, { id: existing!.id }, { validFrom, definition: v.definition }));
        report.rate_plan_versions.created++;
        continue;
      }
      const wanted = await at(vPath, async () => parseDefinition(v.definition));
      if (!same(stored.definition, wanted)) {
        throw new InvalidInputError(`the version valid from ${v.valid_from} exists with another definition; versions are immutable, add one with a later valid_from`,
          { path: vPath });
      }
      report.rate_plan_versions.unchanged++;
    }
  }
}

async function applySubscriptionPlans(em: Em, file: SetupFile, report: SetupReport): Promise<void> {
  for (const [i, plan] of (file.subscription_plans ?? []).entries()) {
    const path = ['subscription_plans', i];
    let ratePlanId: string | null = null;
    if (plan.rate_plan_external_reference) {
      const ratePlan = await em.findOne(RatePlan, { externalReference: plan.rate_plan_external_reference });
      if (!ratePlan) throw new InvalidInputError(`no rate plan ${plan.rate_plan_external_reference}`, { path: [...path, 'rate_plan_external_reference'] });
      ratePlanId = ratePlan.id;
    }
    const patch: SubscriptionPlanPatch = {
      name: plan.name, description: plan.description ?? null, publishFrom: time(plan.publish_from), publishUntil: time(plan.publish_until),
      ratePlanId, recurringCosts: plan.recurring_costs ?? [], useCustomerReimbursementVat: plan.use_customer_reimbursement_vat ?? false,
      creditExcludedComponents: plan.credit_excluded_components ?? [],
    };
    const existing = await em.findOne(SubscriptionPlan, { externalReference: plan.external_reference });
    if (!existing) {
      await at(path, () => createSubscriptionPlan(em, { ...patch, adminId: plan.admin_id, externalReference: plan.external_reference }));
      report.subscription_plans.created++;
      continue;
    }
    if (existing.admin.id.toLowerCase() !== plan.admin_id.toLowerCase()) {
      throw new InvalidInputError(`subscription plan ${plan.external_reference} belongs to ${existing.admin.id}; admin_id cannot change`, { path: [...path, 'admin_id'] });
    }
    const current = {
      name: existing.name, description: existing.description ?? null, publishFrom: iso(existing.publishFrom), publishUntil: iso(existing.publishUntil),
      ratePlanId: existing.ratePlanId ?? null, useCustomerReimbursementVat: existing.useCustomerReimbursementVat,
      recurringCosts: (existing.recurringCosts ?? []).map((c) => ({ ...c, amount_excl_vat: normalize(c.amount_excl_vat) })),
      creditExcludedComponents: asSet(existing.creditExcludedComponents ?? []),
    };
    const wanted = {
      ...patch, publishFrom: iso(patch.publishFrom), publishUntil: iso(patch.publishUntil),
      recurringCosts: (patch.recurringCosts ?? []).map((c) => ({ description: c.description, amount_excl_vat: comparable(c.amount_excl_vat), period: c.period })),
      creditExcludedComponents: asSet(patch.creditExcludedComponents ?? []),
    };
    const fields = (o: typeof current) => ({ ...o, recurringCosts: o.recurringCosts.map((c) => ({ description: c.description, amount_excl_vat: c.amount_excl_vat, period: c.period })) });
    if (same(fields(current), fields(wanted as typeof current))) { report.subscription_plans.unchanged++; continue; }
    await at(path, () => upsertSubscriptionPlan(em, { id: existing.id }, patch));
    report.subscription_plans.updated++;
  }
}

export class DryRun extends Error {}

/**
 * Applies the document in one transaction; with dryRun nothing is kept, the report says what would
 * change. `progress` hears the section being applied (the CLI's progress line).
 */
export async function applySetup(em: Em, file: SetupFile, options: { dryRun?: boolean; progress?: (section: string) => void } = {}): Promise<SetupReport> {
  assertNoRepeats(file);
  const report = emptyReport();
  const progress = options.progress ?? (() => {});
  try {
    await em.transactional(async (tx) => {
      progress('administrations');
      await applyAdministrations(tx, file, report);
      progress('VAT rates');
      await applyVatRates(tx, file, report);
      progress('rate plans');
      await applyRatePlans(tx, file, report);
      progress('subscription plans');
      await applySubscriptionPlans(tx, file, report);
      progress('billing');
      await applyBilling(tx, file, report, at);
      if (options.dryRun) throw new DryRun();
    });
  } catch (error) {
    if (!(error instanceof DryRun)) throw error;
  }
  return report;
}
