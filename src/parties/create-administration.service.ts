import { isCountryCode } from '../platform/countries.ts';
import { InvalidInputError } from '../platform/errors.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import { Administration } from './administration.entity.ts';
import { Seller } from './seller.entity.ts';

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

export async function createSeller(em: Em, input: SellerInput): Promise<Seller> {
  if (!input.name) throw new InvalidInputError('name is required', { path: ['name'] });
  if (!isCountryCode(input.country)) throw new InvalidInputError('country must be an officially assigned ISO 3166-1 alpha-2 code', { path: ['country'] });
  const seller = em.create(Seller, { name: input.name, country: input.country.toUpperCase(), externalReference: input.externalReference ?? null });
  await em.flush();
  return seller;
}

/** Administrations are created by operators (CLI, setup), keyed by a slug such as `nl-main`. */
export async function createAdministration(em: Em, input: AdministrationInput): Promise<Administration> {
  if (!SLUG.test(input.id)) throw new InvalidInputError('id must be a slug: letters, digits and "-"', { path: ['id'] });
  if (!input.name) throw new InvalidInputError('name is required', { path: ['name'] });
  if (!/^[A-Z]{3}$/.test(input.currency)) throw new InvalidInputError('currency must be an ISO 4217 code', { path: ['currency'] });
  if (!isCountryCode(input.country)) throw new InvalidInputError('country must be an officially assigned ISO 3166-1 alpha-2 code', { path: ['country'] });
  if (await em.count(Administration, { id: input.id }, { filters: false })) {
    throw new InvalidInputError(`administration ${input.id} exists already`, { path: ['id'] });
  }
  let seller: Seller | null = null;
  if (input.sellerId) {
    seller = isUuid(input.sellerId) ? await em.findOne(Seller, { id: input.sellerId }) : null;
    if (!seller) throw new InvalidInputError(`no seller ${input.sellerId}`, { path: ['seller_id'] });
  }
  const admin = em.create(Administration, {
    id: input.id, name: input.name, currency: input.currency, country: input.country.toUpperCase(),
    localeId: input.localeId ?? null, seller,
  });
  await em.flush();
  return admin;
}
