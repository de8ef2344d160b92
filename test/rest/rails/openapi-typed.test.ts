// Typed everywhere (decisions: "Responses and the OpenAPI document"): every object schema of the
// OpenAPI document, in requests and responses, lists its properties, so a generated client types
// every member (openapi-typescript gives a bare `{type: object}` Record<string, never>). Objects
// whose keys are data are maps with a typed value, only at the places listed here with the reason;
// `additionalProperties: true` only where a body is kept exactly as a peer sent it.
import test from 'ava';
import { buildOpenApi } from '../../../rest/rails/openapi.ts';
import { API_PREFIX } from '../../../rest/app.ts';
import { routes } from '../../../rest/routes.ts';

type Schema = Record<string, unknown>;

/** Objects without properties: where (a pattern of the JSON pointer) and why. */
const MAPS: [RegExp, string][] = [
  [/\/properties\/custom_fields$/, 'custom_fields: names the integrator chooses (at most 50), values strings, numbers or booleans'],
  [/^\/components\/schemas\/(PricingResult|CostCalculation)\/properties\/annotations$/, 'annotation names are chosen by the rate plan\'s rule scripts'],
  [/^\/components\/schemas\/BillingRollup\/properties\/volume$/, 'volume per unit: the units of the items (a custom item names its own)'],
  [/^\/components\/schemas\/Event\/properties\/changes$/, 'the changed fields of the resource: [from, to] by field name'],
];
/** `additionalProperties: true`: bodies kept as they came. */
const RAW: [RegExp, string][] = [
  [/^\/components\/schemas\/OcpiInvalidCdr\/properties\/body$/, 'an OCPI CDR that failed the checks, as the peer sent it'],
  [/^\/components\/schemas\/ChargeSessionBodyAsReceived\/anyOf\/[01]$/, 'a session body as received: unknown members are kept (listed properties are typed)'],
  [/^\/components\/schemas\/ChargeSessionBodyAsReceived\/anyOf\/0\/properties\/historical_tariff$/, 'an OCPI tariff as the sender sent it (processing checks it)'],
];

const isObject = (schema: Schema) => schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object'));

function objectSchemas(node: unknown, pointer: string, found: { pointer: string; schema: Schema }[]): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    node.forEach((item, i) => objectSchemas(item, `${pointer}/${i}`, found));
    return;
  }
  const schema = node as Schema;
  if (isObject(schema)) found.push({ pointer, schema });
  for (const [key, value] of Object.entries(schema)) objectSchemas(value, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, found);
}

const document = buildOpenApi(routes, API_PREFIX);
const objects: { pointer: string; schema: Schema }[] = [];
objectSchemas(document.paths, '/paths', objects);
objectSchemas((document.components as Schema).schemas, '/components/schemas', objects);

test('every object schema lists its properties, but the maps listed with their reason', (t) => {
  t.true(objects.length > 300, `${objects.length} object schemas`);
  const loose = objects.filter(({ schema }) => Object.keys((schema.properties as Schema | undefined) ?? {}).length === 0);
  const unlisted = loose.filter(({ pointer, schema }) => {
    if (RAW.some(([where]) => where.test(pointer))) return schema.additionalProperties !== true;
    const map = MAPS.some(([where]) => where.test(pointer));
    const typedValue = typeof schema.additionalProperties === 'object' && schema.additionalProperties !== null;
    return !(map && typedValue);
  });
  t.deepEqual(unlisted.map(({ pointer, schema }) => `${pointer}: ${JSON.stringify(schema).slice(0, 120)}`), []);
  for (const [where, why] of MAPS) t.true(loose.some(({ pointer }) => where.test(pointer)), `still a map: ${where} (${why})`);
  for (const [where, why] of RAW) {
    t.true(objects.some(({ pointer, schema }) => where.test(pointer) && schema.additionalProperties === true), `still as received: ${where} (${why})`);
  }
});

test('additionalProperties: true only where a body is kept as it came', (t) => {
  const open = objects.filter(({ schema }) => schema.additionalProperties === true).map(({ pointer }) => pointer);
  t.deepEqual(open.filter((pointer) => !RAW.some(([where]) => where.test(pointer))), []);
});

test('the twelve places of the issue are typed: addresses, charge periods, the definition, a change, the agreement, a tariff, bodies', (t) => {
  const schemas = (document.components as { schemas: Record<string, Schema> }).schemas;
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  for (const session of ['ChargeSession', 'CpoChargeSession', 'AppChargeSession']) {
    t.deepEqual((schemas[session]!.properties as Schema).address, ref('ReportedAddress'), session);
  }
  t.deepEqual(Object.keys(schemas.ReportedAddress!.properties as Schema), ['street', 'city', 'postal_code', 'country']);
  t.deepEqual(((schemas.CpoChargeSession!.properties as Schema).charge_periods as Schema).items, ref('ReportedChargePeriod'));
  t.deepEqual(((schemas.CpoChargeSessionReimbursement!.properties as Schema).charging_periods as Schema).items, ref('ReportedChargePeriod'));
  t.deepEqual((schemas.RatePlanVersion!.properties as Schema).definition, ref('RatePlanDefinition'));
  t.deepEqual(Object.keys(((schemas.PricingResult!.properties as Schema).roaming_agreement as Schema).properties as Schema),
    ['id', 'external_reference', 'connection_id', 'partner_id', 'role']);
  t.deepEqual(((schemas.Event!.properties as Schema).changes as Schema).type, ['object', 'null']);
  const sessionBody = (document.paths as Record<string, any>)['/charge-session'].post.requestBody.content['application/json'].schema;
  t.deepEqual(sessionBody.properties.historical_tariff.required, ['country_code', 'party_id', 'id', 'currency', 'elements', 'last_updated']);
  t.deepEqual((schemas.ChargeSessionOriginal!.properties as Schema).body, ref('ChargeSessionBodyAsReceived'));
  t.is((document.paths as Record<string, any>)['/msp-charge-session/{id}/reprice'].post.requestBody, undefined, 'reprice takes no body');
});
