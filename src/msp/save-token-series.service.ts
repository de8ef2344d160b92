import { isCountryCode } from '../platform/countries.ts';
import { DomainError, InvalidInputError } from '../platform/errors.ts';
import { assertExternalReferenceFree } from '../platform/external-reference.ts';
import { flushUnique } from '../platform/flush-unique.ts';
import type { Em } from '../platform/orm.ts';
import { plainData, type Data } from '../platform/plain-data.ts';
import { visibleAdministration } from '../parties/customer-input.ts';
import { existingBrandCode } from './token-brand.service.ts';
import type { FormFactor, UidType } from './token-reference-data.ts';
import { TokenSeries } from './token-series.entity.ts';

export interface TokenSeriesInput {
  adminId?: string | null;
  name?: string | null;
  evcoPrefix?: string | null;
  instanceWidth?: number | null;
  formFactor?: FormFactor | null;
  uidType?: UidType | null;
  brandCode?: string | null;
  externalReference?: string | null;
}

/** Country code, provider id and up to 8 characters of the instance: each id leaves 1+ digits. */
const PREFIX = /^[A-Z]{2}[A-Z0-9]{3}[A-Z0-9]{0,8}$/;

export function normalizeEvcoPrefix(prefix: string): string {
  const normalized = prefix.replace(/[-*]/g, '').toUpperCase();
  if (!PREFIX.test(normalized) || !isCountryCode(normalized.slice(0, 2))) {
    throw new InvalidInputError('evco_prefix must be an officially assigned country code, a 3-character provider id and at most 8 characters of the instance', { path: ['evco_prefix'] });
  }
  return normalized;
}

/** POST /msp-token-series. The instance width is what the prefix leaves of the 9-character instance. */
export async function createTokenSeries(em: Em, input: TokenSeriesInput): Promise<Data<TokenSeries>> {
  const missing = (['name', 'evcoPrefix'] as const).filter((field) => input[field] == null);
  if (missing.length) {
    const members = { name: 'name', evcoPrefix: 'evco_prefix' };
    throw DomainError.of('validation_failed', missing.map((field) => ({ path: [members[field]], message: `${members[field]} is required` })));
  }
  const admin = await visibleAdministration(em, input.adminId);
  const evcoPrefix = normalizeEvcoPrefix(input.evcoPrefix!);
  const instanceWidth = 14 - evcoPrefix.length;
  if (input.instanceWidth != null && input.instanceWidth !== instanceWidth) {
    throw new InvalidInputError(`with this evco_prefix the instance number has ${instanceWidth} characters (an eMA instance has 9)`, { path: ['instance_width'] });
  }
  const brandCode = input.brandCode == null ? null : await existingBrandCode(em, input.brandCode);
  await assertExternalReferenceFree(em, TokenSeries, input.externalReference, 'token series');
  const series = em.create(TokenSeries, {
    admin,
    name: input.name!,
    evcoPrefix,
    instanceWidth,
    formFactor: input.formFactor ?? 'card',
    uidType: input.uidType ?? null,
    brandCode,
    externalReference: input.externalReference ?? null,
  });
  await flushUnique(em, { msp_token_series_external_reference_unique: ['external_reference'] });
  return plainData(series);
}
