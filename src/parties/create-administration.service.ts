import { callerScope } from '../access/admin-scope.ts';
import { assertMayChangeInstanceWide } from '../access/instance-wide.ts';
import { isCountryCode } from '../platform/countries.ts';
import { refuseBlank } from '../platform/blank-text.ts';
import { DomainError, InvalidInputError, NotFoundError } from '../platform/errors.ts';
import { assertExternalReferenceFree } from '../platform/external-reference.ts';
import { flushUnique } from '../platform/flush-unique.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import { Administration } from './administration.entity.ts';
import { administrationsByIds, type AdministrationData } from './administration.queries.ts';
import { Seller } from './seller.entity.ts';
import { CURRENCY_RULE, isCentCurrency } from '../money/currency.ts';

export interface AdministrationInput {
  id: string;
  name: string;
  currency: string;
  country: string;
  localeId?: string | null;
  sellerId?: string | null;
}

export interface SellerInput {
  name: string;
  country: string;
  externalReference?: string | null;
}

const SLUG = /^[a-z0-9][a-z0-9-]{1,62}$/i;

/**
 * Sellers are created by operators (CLI seller create, the demo). An external reference is never ""
 * (docs/decisions.md), and one another seller has is 400 `duplicate` at external_reference, also
 * when a concurrent create took it between the check and the flush.
 */
export async function createSeller(em: Em, input: SellerInput): Promise<Seller> {
  if (!input.name) throw new InvalidInputError('name is required', { path: ['name'] });
  refuseBlank(input.name, ['name']);
  if (!isCountryCode(input.country)) throw new InvalidInputError('country must be an officially assigned ISO 3166-1 alpha-2 code', { path: ['country'] });
  if (input.externalReference === '') {
    throw new DomainError('validation_failed', 'external_reference must not be empty (leave it out for none)', { path: ['external_reference'] });
  }
  await assertExternalReferenceFree(em, Seller, input.externalReference, 'seller');
  const seller = em.create(Seller, { name: input.name, country: input.country.toUpperCase(), externalReference: input.externalReference ?? null });
  await flushUnique(em, { seller_external_reference_unique: ['external_reference'] });
  return seller;
}

/** Administrations are created by operators (CLI, setup, GraphQL createAdministration), keyed by a slug such as `nl-main`. */
export async function createAdministration(em: Em, input: AdministrationInput): Promise<Administration> {
  assertMayChangeInstanceWide(callerScope(em), 'administrations');
  if (!SLUG.test(input.id)) throw new InvalidInputError('id must be a slug: letters, digits and "-"', { path: ['id'] });
  // Lists of administration ids reach PostgreSQL as array text ({a,b}), where an unquoted `null` is no value:
  // such an administration got no webhook deliveries and its limited credentials saw none of its rows.
  if (/^null$/i.test(input.id)) throw new InvalidInputError('id "null" is reserved', { path: ['id'] });
  if (!input.name) throw new InvalidInputError('name is required', { path: ['name'] });
  refuseBlank(input.name, ['name']);
  if (!isCentCurrency(input.currency)) throw new InvalidInputError(`currency must be ${CURRENCY_RULE}`, { path: ['currency'] });
  if (!isCountryCode(input.country)) throw new InvalidInputError('country must be an officially assigned ISO 3166-1 alpha-2 code', { path: ['country'] });
  if (await em.count(Administration, { id: input.id }, { filters: false })) {
    throw new InvalidInputError(`administration ${input.id} exists already`, { path: ['id'] });
  }
  const seller = await sellerNamed(em, input.sellerId);
  const admin = em.create(Administration, {
    id: input.id, name: input.name, currency: input.currency, country: input.country.toUpperCase(),
    localeId: input.localeId ?? null, seller,
  });
  await em.flush();
  return admin;
}

async function sellerNamed(em: Em, sellerId: string | null | undefined): Promise<Seller | null> {
  if (!sellerId) return null;
  const seller = isUuid(sellerId) ? await em.findOne(Seller, { id: sellerId }) : null;
  if (!seller) throw new InvalidInputError(`no seller ${sellerId}`, { path: ['seller_id'] });
  return seller;
}

const answer = async (em: Em, id: string): Promise<AdministrationData> => (await administrationsByIds(em, [id]))[0]!;

/** createAdministration answering data (GraphQL). */
export async function createAdministrationData(em: Em, input: AdministrationInput): Promise<AdministrationData> {
  return answer(em, (await createAdministration(em, input)).id);
}

export interface AdministrationChange {
  name?: string | null;
  localeId?: string | null;
  sellerId?: string | null;
}

/**
 * Merge-updates an administration's name, locale and seller (GraphQL updateAdministration). Its
 * slug, currency and country stay: billing and pricing of its records depend on them.
 */
export async function updateAdministration(em: Em, id: string, change: AdministrationChange): Promise<AdministrationData> {
  assertMayChangeInstanceWide(callerScope(em), 'administrations');
  const admin = await em.findOne(Administration, { id });
  if (!admin) throw new NotFoundError('administration');
  if (change.name !== undefined) {
    if (!change.name) throw new InvalidInputError('name is required', { path: ['name'] });
    refuseBlank(change.name, ['name']);
    admin.name = change.name;
  }
  if (change.localeId !== undefined) admin.localeId = change.localeId;
  if (change.sellerId !== undefined) admin.seller = await sellerNamed(em, change.sellerId);
  await em.flush();
  return answer(em, admin.id);
}
