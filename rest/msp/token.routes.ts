import * as yup from 'yup';
import { tryParseEvcoId, validateNewEvcoId } from '../../src/msp/evco-id.ts';
import { setTokenChargeAuthBlocked, updateToken, type TokenPatch } from '../../src/msp/save-token.service.ts';
import { createTokenSeries } from '../../src/msp/save-token-series.service.ts';
import { upsertTokenBrand } from '../../src/msp/token-brand.service.ts';
import { FORM_FACTOR_IDS, FORM_FACTORS, UID_TYPE_IDS, UID_TYPES } from '../../src/msp/token-reference-data.ts';
import { FULFILMENT_STATES } from '../../src/msp/token.entity.ts';
import {
  getToken, getTokenSeries, tokenBrands, tokenList, tokenSeriesList, type TokenBrandData, type TokenData, type TokenSeriesData,
} from '../../src/msp/token.queries.ts';
import { listOf, seekPage } from '../rails/pagination.ts';
import { patchFrom, type FieldMapping } from '../rails/patch.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { booleanFilter, externalRef, iso, isoDate, oneOf, text, timestamp } from '../../src/platform/input-schemas.ts';
import { representation, t as f, type Infer } from '../rails/shape.ts';

const TAG = 'MSP tokens';

export const tokenShape = representation('Token', {
  evco_id: f.string(),
  evco_id_formatted: f.string(),
  uid: f.nullable(f.string()),
  token_uid_type_id: f.nullable(f.enum(UID_TYPE_IDS)),
  brand_code: f.nullable(f.string()),
  form_factor: f.enum(FORM_FACTOR_IDS),
  token_series_id: f.nullable(f.string()),
  is_currently_valid: f.boolean(),
  current_admin_id: f.string(),
  initial_admin_id: f.string(),
  charge_auth_requests_blocked: f.boolean(),
  fulfilment: f.enum(FULFILMENT_STATES),
  activated_at: f.nullable(f.timestamp()),
  vehicle_vin: f.nullable(f.string()),
  used: f.boolean(),
  external_updated_at: f.nullable(f.timestamp()),
  created_at: f.timestamp(),
  updated_at: f.timestamp(),
});

export const tokenSeriesShape = representation('TokenSeries', {
  id: f.string(),
  admin_id: f.string(),
  name: f.string(),
  evco_prefix: f.string(),
  instance_width: f.integer(),
  next_number: f.integer(),
  form_factor: f.enum(FORM_FACTOR_IDS),
  token_uid_type_id: f.nullable(f.enum(UID_TYPE_IDS)),
  brand_code: f.nullable(f.string()),
  external_reference: f.nullable(f.string()),
  created_at: f.timestamp(),
  updated_at: f.timestamp(),
});

const brandShape = representation('TokenBrand', { code: f.string(), name: f.string() });

const evcoIdShape = representation('EvcoIdValidation', {
  normalized: f.string(),
  formatted: f.string(),
  country_code: f.string(),
  provider_id: f.string(),
  instance: f.string(),
  check_digit: f.string(),
  check_digit_present: f.boolean(),
});

const uidTypeShape = representation('TokenUidType', { id: f.enum(UID_TYPE_IDS), name: f.string(), pattern: f.string() });
const formFactorShape = representation('TokenFormFactor', {
  id: f.enum(FORM_FACTOR_IDS), name: f.string(), physical: f.boolean(), fulfilable: f.boolean(),
});

export function serializeToken(t: TokenData): Infer<typeof tokenShape> {
  return {
    evco_id: t.evcoId,
    evco_id_formatted: tryParseEvcoId(t.evcoId)?.formatted ?? t.evcoId,
    uid: t.uid ?? null,
    token_uid_type_id: t.uidType ?? null,
    brand_code: t.brandCode ?? null,
    form_factor: t.formFactor,
    token_series_id: t.series?.id ?? null,
    is_currently_valid: t.isCurrentlyValid,
    current_admin_id: t.currentAdmin.id,
    initial_admin_id: t.initialAdmin.id,
    charge_auth_requests_blocked: t.chargeAuthBlocked,
    fulfilment: t.fulfilment,
    activated_at: iso(t.activatedAt),
    vehicle_vin: t.vehicleVin ?? null,
    used: t.firstLinkedAt != null,
    external_updated_at: iso(t.externalUpdatedAt),
    created_at: iso(t.createdAt),
    updated_at: iso(t.updatedAt),
  };
}

export function serializeTokenSeries(s: TokenSeriesData): Infer<typeof tokenSeriesShape> {
  return {
    id: s.id,
    admin_id: s.admin.id,
    name: s.name,
    evco_prefix: s.evcoPrefix,
    instance_width: s.instanceWidth,
    next_number: Number(s.nextNumber),
    form_factor: s.formFactor,
    token_uid_type_id: s.uidType ?? null,
    brand_code: s.brandCode ?? null,
    external_reference: s.externalReference ?? null,
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
  };
}

const serializeBrand = (b: TokenBrandData): Infer<typeof brandShape> => ({ code: b.code, name: b.name });

const tokenBody = yup.object({
  brand_code: text(64).nullable(),
  uid: text(64).nullable(),
  token_uid_type_id: oneOf(UID_TYPE_IDS).nullable(),
  form_factor: oneOf(FORM_FACTOR_IDS).nullable().meta({ description: 'Set when the token is issued; ignored here.' }),
  vehicle_vin: text(17).nullable(),
  external_updated_at: timestamp().nullable(),
});

const MAPPING: FieldMapping = {
  brand_code: 'brandCode',
  uid: 'uid',
  token_uid_type_id: 'uidType',
  form_factor: 'formFactor',
  vehicle_vin: 'vehicleVin',
  external_updated_at: { to: 'externalUpdatedAt', convert: isoDate },
};

const seriesBody = yup.object({
  admin_id: text(64).nullable(),
  name: text().nullable(),
  evco_prefix: text(20).nullable(),
  instance_width: yup.number().integer().min(1).max(9).nullable(),
  form_factor: oneOf(FORM_FACTOR_IDS).nullable(),
  token_uid_type_id: oneOf(UID_TYPE_IDS).nullable(),
  brand_code: text(64).nullable(),
  external_reference: externalRef().nullable(),
});

/** `after` names a token by its evco_id as listed; separators are tolerated. */
function tokenListQuery(rawQuery: Record<string, string>): Record<string, string> {
  if (rawQuery.after === undefined) return rawQuery;
  return { ...rawQuery, after: tryParseEvcoId(rawQuery.after)?.compact ?? rawQuery.after };
}

export const tokenRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/msp-token', tag: TAG, summary: 'List tokens, ordered by evco_id (after = an evco_id)', paged: true,
    response: tokenShape,
    query: yup.object({ used: booleanFilter() }),
    handler: ({ ctx, em, rawQuery, query }) => seekPage(ctx, {
      list: tokenList(em, { used: query.used === undefined ? undefined : query.used === 'true' }),
      rawQuery: tokenListQuery(rawQuery), path: '/main/v1/msp-token', serialize: serializeToken,
    }),
  }),
  defineRoute({
    method: 'get', path: '/msp-token/:evco_id', tag: TAG, summary: 'Get a token (evco_id in any casing, separators optional)',
    response: tokenShape,
    handler: async ({ em, params }) => serializeToken(await getToken(em, params.evco_id)),
  }),
  defineRoute({
    method: 'post', path: '/msp-token/:evco_id', tag: TAG, graphql: 'updateToken', summary: 'Merge-update a token',
    description: 'Tokens are issued by the series and subscription operations: an unknown evco_id is 400 not_found. form_factor cannot change.',
    body: tokenBody, response: tokenShape,
    handler: async ({ em, params, body }) => serializeToken(await updateToken(em, params.evco_id, patchFrom(body, MAPPING, 'merge') as TokenPatch)),
  }),
  defineRoute({
    method: 'put', path: '/msp-token/:evco_id', tag: TAG, summary: 'Replace a token (omitted fields are reset)', deprecated: true,
    body: tokenBody, response: tokenShape,
    handler: async ({ em, params, body }) => serializeToken(await updateToken(em, params.evco_id, patchFrom(body, MAPPING, 'replace') as TokenPatch)),
  }),
  defineRoute({
    method: 'post', path: '/msp-token/:evco_id/block-charge-auth-requests', tag: TAG, summary: 'Block charge authorization for the token',
    graphql: 'blockTokenChargeAuthRequests',
    response: tokenShape,
    handler: async ({ em, params }) => serializeToken(await setTokenChargeAuthBlocked(em, params.evco_id, true)),
  }),
  defineRoute({
    method: 'post', path: '/msp-token/:evco_id/unblock-charge-auth-requests', tag: TAG, summary: 'Unblock charge authorization for the token',
    graphql: 'unblockTokenChargeAuthRequests',
    response: tokenShape,
    handler: async ({ em, params }) => serializeToken(await setTokenChargeAuthBlocked(em, params.evco_id, false)),
  }),
  defineRoute({
    method: 'post', path: '/msp-token-evco-id/validate', tag: TAG, summary: 'Validate an EVCO id (eMA ID) and answer its normalized and formatted forms',
    graphql: 'validateEvcoId',
    body: yup.object({ evco_id: yup.string().required('${path} is required') }), response: evcoIdShape,
    handler: async ({ body }) => {
      const valid = validateNewEvcoId(body.evco_id);
      return {
        normalized: valid.normalized,
        formatted: valid.formatted,
        country_code: valid.countryCode,
        provider_id: valid.providerId,
        instance: valid.instance,
        check_digit: valid.checkDigit,
        check_digit_present: valid.checkDigitPresent,
      };
    },
  }),
  defineRoute({
    method: 'get', path: '/msp-token-brand', tag: TAG, summary: 'List token brands (not paged)', response: listOf(brandShape),
    handler: async ({ em }) => ({ items: (await tokenBrands(em)).map(serializeBrand) }),
  }),
  defineRoute({
    method: 'post', path: '/msp-token-brand/:code', tag: TAG, graphql: 'saveTokenBrand', summary: 'Create or rename a token brand', extension: true,
    description: 'Brands are instance-wide: only a credential not limited to administrations may change them.',
    body: yup.object({ name: text().required('${path} is required') }), response: brandShape,
    handler: async ({ em, params, body }) => serializeBrand(await upsertTokenBrand(em, params.code, body.name)),
  }),
  defineRoute({
    method: 'get', path: '/msp-token-uid-type', tag: TAG, summary: 'List token UID types (not paged)', response: listOf(uidTypeShape),
    handler: async () => ({ items: UID_TYPES.map((u) => ({ id: u.id, name: u.name, pattern: u.pattern })) }),
  }),
  defineRoute({
    method: 'get', path: '/msp-token-form-factor', tag: TAG, summary: 'List token form factors (not paged)', response: listOf(formFactorShape),
    handler: async () => ({ items: FORM_FACTORS.map((f) => ({ id: f.id, name: f.name, physical: f.physical, fulfilable: f.fulfilable })) }),
  }),
  defineRoute({
    method: 'get', path: '/msp-token-series', tag: TAG, summary: 'List token series', paged: true, response: tokenSeriesShape,
    handler: ({ ctx, em, rawQuery }) => seekPage(ctx, {
      list: tokenSeriesList(em), rawQuery, path: '/main/v1/msp-token-series', serialize: serializeTokenSeries,
    }),
  }),
  defineRoute({
    method: 'post', path: '/msp-token-series', tag: TAG, summary: 'Create a token series', body: seriesBody, response: tokenSeriesShape,
    graphql: 'createTokenSeries',
    handler: async ({ em, body }) => serializeTokenSeries(await createTokenSeries(em, {
      adminId: body.admin_id, name: body.name, evcoPrefix: body.evco_prefix, instanceWidth: body.instance_width,
      formFactor: body.form_factor, uidType: body.token_uid_type_id, brandCode: body.brand_code, externalReference: body.external_reference,
    })),
  }),
  defineRoute({
    method: 'get', path: '/msp-token-series/:id', tag: TAG, summary: 'Get a token series', extension: true, response: tokenSeriesShape,
    handler: async ({ em, params }) => serializeTokenSeries(await getTokenSeries(em, params.id)),
  }),
];
