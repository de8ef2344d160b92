import {
  getRatePlan, getRatePlanVersion, ratePlanList, ratePlanVersionList, type RatePlanData, type RatePlanVersionData,
} from '../../src/pricing/rate-plan.queries.ts';
import * as yup from 'yup';
import { createRatePlan, createRatePlanVersion, upsertRatePlan, type RatePlanFields } from '../../src/pricing/rate-plan.service.ts';
import { ratePlanDefinitionShape } from './rate-plan-definition-shape.ts';
import type { Patch } from '../../src/platform/merge-patch.ts';
import { parseRef } from '../../src/platform/resource-ref.ts';
import { seekPage } from '../rails/pagination.ts';
import { patchFrom, type FieldMapping } from '../rails/patch.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { externalRef, iso, isoDate, text, timestamp } from '../../src/platform/input-schemas.ts';
import { currencyCode } from '../../src/money/currency.ts';
import { representation, t, type Infer } from '../rails/shape.ts';

const TAG = 'Pricing: rate plans';

export const ratePlanShape = representation('RatePlan', {
  id: t.string(),
  name: t.string(),
  currency: t.string(),
  admin_ids: t.array(t.string()),
  external_reference: t.nullable(t.string()),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

export const ratePlanVersionShape = representation('RatePlanVersion', {
  id: t.string(),
  rate_plan_id: t.string(),
  valid_from: t.timestamp(),
  definition: ratePlanDefinitionShape,
  created_at: t.timestamp(),
});

export function serializeRatePlan(p: RatePlanData): Infer<typeof ratePlanShape> {
  return {
    id: p.id,
    name: p.name,
    currency: p.currency,
    admin_ids: p.adminIds,
    external_reference: p.externalReference ?? null,
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
  };
}

export function serializeRatePlanVersion(v: RatePlanVersionData): Infer<typeof ratePlanVersionShape> {
  return { id: v.id, rate_plan_id: v.ratePlan.id, valid_from: iso(v.validFrom), definition: v.definition, created_at: iso(v.createdAt) };
}

const planBody = yup.object({
  name: text().nullable(),
  currency: currencyCode().nullable(),
  admin_ids: yup.array(text(64).defined()).max(1000, '${path} must hold at most ${max} items').nullable(),
  external_reference: externalRef().nullable(),
});

const versionBody = yup.object({
  valid_from: timestamp().defined('${path} is required'),
  definition: yup.mixed().defined('${path} is required'),
});

const MAPPING: FieldMapping = { name: 'name', currency: 'currency', admin_ids: 'adminIds', external_reference: 'externalReference' };
const patch = (b: Record<string, unknown>) => patchFrom(b, MAPPING) as Patch<RatePlanFields>;

const RULES = 'A rate plan has one currency (set on create) and is shared with admin_ids, administrations of that currency; '
  + 'an empty list shares it with every administration of the currency (only a credential not limited to administrations may do so).';

const DEFINITION = 'definition: {rates, rules}. rates: {energy (per kWh), time (per minute), parking_time (per minute): {price, step_size}, '
  + 'flat (per session): {price}, min_price, max_price (per session, excl. VAT)}, all decimal strings. rules: ordered, the first '
  + 'whose match holds decides: {name, match: {cpo_party_ids, tariff_codes, countries, current_type (AC|DC), min_/max_power_kw, '
  + 'min_/max_duration_minutes, min_/max_energy_kwh, time_of_day {from, until} (HH:MM local, may wrap midnight), days_of_week [1..7], '
  + 'date_from, date_until (local dates, until exclusive)}, rates (overriding the base rates per component), vat_kind}. '
  + 'Versions are immutable: a change is a new version with a later valid_from.';

export const ratePlanRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/rate-plan', tag: TAG, summary: 'List rate plans', paged: true, extension: true, response: ratePlanShape,
    query: yup.object({ currency: currencyCode() }),
    handler: async ({ ctx, em, rawQuery, query }) => {
      return seekPage(ctx, {
        list: await ratePlanList(em, { currency: query.currency }), rawQuery, path: '/main/v1/rate-plan', serialize: serializeRatePlan,
      });
    },
  }),
  defineRoute({
    method: 'post', path: '/rate-plan', graphql: 'createRatePlan', tag: TAG, summary: 'Create a rate plan', extension: true,
    description: `Needs name and currency. ${RULES}`, body: planBody, response: ratePlanShape,
    handler: async ({ em, body }) => serializeRatePlan(await createRatePlan(em, patch(body))),
  }),
  defineRoute({
    method: 'get', path: '/rate-plan/:id', tag: TAG, summary: 'Get a rate plan (id or ext_ref.<external_reference>)', extension: true,
    response: ratePlanShape,
    handler: async ({ em, params }) => serializeRatePlan(await getRatePlan(em, parseRef(params.id, true))),
  }),
  defineRoute({
    method: 'post', path: '/rate-plan/:id', graphql: 'updateRatePlan', tag: TAG, summary: 'Merge-update a rate plan; on ext_ref.<ref> create it when missing', extension: true,
    description: `name, external_reference and admin_ids (replaced as a whole) change; currency is set on create only. ${RULES}`, body: planBody,
    response: ratePlanShape,
    handler: async ({ em, body, params }) => serializeRatePlan(await upsertRatePlan(em, parseRef(params.id, true), patch(body))),
  }),
  defineRoute({
    method: 'get', path: '/rate-plan/:id/version', tag: TAG, summary: 'List the versions of a rate plan', paged: true, extension: true,
    response: ratePlanVersionShape,
    handler: async ({ ctx, em, rawQuery, params }) => seekPage(ctx, {
      list: await ratePlanVersionList(em, parseRef(params.id, true)), rawQuery, path: `/main/v1/rate-plan/${encodeURIComponent(params.id)}/version`,
      serialize: serializeRatePlanVersion,
    }),
  }),
  defineRoute({
    method: 'post', path: '/rate-plan/:id/version', graphql: 'addRatePlanVersion', tag: TAG, summary: 'Create a rate plan version', extension: true,
    description: DEFINITION, body: versionBody, response: ratePlanVersionShape,
    handler: async ({ em, body, params }) => serializeRatePlanVersion(await createRatePlanVersion(em, parseRef(params.id, true), {
      validFrom: isoDate(body.valid_from), definition: body.definition,
    })),
  }),
  defineRoute({
    method: 'get', path: '/rate-plan/:id/version/:version_id', tag: TAG, summary: 'Get a rate plan version', extension: true,
    response: ratePlanVersionShape,
    handler: async ({ em, params }) => serializeRatePlanVersion(await getRatePlanVersion(em, parseRef(params.id, true), params.version_id)),
  }),
];
