// A record's uuid names it in any casing (docs/decisions.md "A record's uuid names it in any casing"):
// EVERY GET operation of the OpenAPI document whose path names records by id (Admin API and App API), and
// every root query field (and viewer field) of schema/schema.graphql with an `id: ID!` argument that takes a
// database id, is called twice by a credential without a limit (the App API's by an app credential of
// mine's end-user site, its end user in the path or X-SVC-End-User): the ids as stored (lower case) and the
// same ids in upper case (an EVCO id, stored in upper case and taken in any casing by its route: in lower
// case). The other casing must answer the same status and the same body (a document: the same bytes), never 5xx.
// The world is the isolation matrix's (test/helpers/isolation-world.ts), plus the records it lacks (a
// finalized box with its documents, a review-set operation, a roaming command, a reimbursement record).
// A GET operation with a path parameter, or a field with an `id: ID!`, without a case here fails the
// first tests: add its case, or its reason to be out of scope (ids that are no uuid: slugs, the
// operator's evse_uid and location_id, global ids). A GET operation without a path parameter names no record.
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import test, { type ExecutionContext } from 'ava';
import {
  buildSchema, getNamedType, isInterfaceType, isLeafType, isNonNullType, isObjectType, isUnionType, type GraphQLField, type GraphQLObjectType,
} from 'graphql';
import { startTestApp, type Auth, type Response, type TestApp } from '../../helpers/app.ts';
import { boxInState, reviewSetOperation } from '../../helpers/billing-factories.ts';
import { cpoSessionBody, settledCpoSession } from '../../helpers/cpo-factories.ts';
import { buildWorld, type World } from '../../helpers/isolation-world.ts';
import { submitSession } from '../../helpers/session-factories.ts';

/** A path built from ids: `id` gives each id in the casing of the call (filenames, codes and the like stay as they are). */
type PathOf = (id: (raw: string) => string) => string;

interface Case {
  path: PathOf;
  /** An App API operation: called by the app credential of mine's end-user site. */
  app?: true;
  /** The status of the call with the ids as stored (default 200: the ids name records the caller sees). */
  status?: number;
}

/** Out of scope, and why. */
interface Skip { skip: string }

let app: TestApp;
let w: World;
let unlimited: Auth;
let appCredential: Auth;
let openApi: { paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>> };
/** Ids the world does not keep: read from the lists, or made here. */
let more: {
  finalBoxId: string; primaryFile: string; xmlFile: string; ratePlanVersionId: string; cpoSessionId: string; reimbursementId: string;
  pricingResultId: string; operationId: string; commandId: string;
};

async function ok(method: string, path: string, body?: unknown): Promise<Record<string, any>> {
  const r = await app.request(method, `/main/v1${path}`, body === undefined ? {} : { body });
  if (r.status < 200 || r.status > 202) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

test.before(async () => {
  app = await startTestApp();
  w = await buildWorld(app);
  unlimited = await app.credential({ role: 'admin' });
  appCredential = await app.credential({ role: 'app', siteId: w.mine.siteId });
  const M = w.mine;
  const V = w.victim;
  // Mine's box finalized (its documents are served, to the App API too); the victim's review-set closed
  // (an operation); a roaming command; a CPO session at mine's reimbursed EVSE (a reimbursement record).
  const [final, operation, command, cpoSession] = await Promise.all([
    (async () => {
      await ok('POST', `/billing-box/${M.boxId}/close`, {});
      await ok('POST', `/billing-box/${M.boxId}/approve`, {});
      await boxInState(app, M.boxId, 'ready');
      return ok('POST', `/billing-box/${M.boxId}/finalize`);
    })(),
    reviewSetOperation(app, V.reviewSetId, 'close'),
    ok('POST', '/msp-roaming-command', { type: 'stop_session', roaming_connection_id: w.connectionId, session_id: M.ocpiSessionId }),
    (async () => {
      // The world's EVSE has no connector yet (a session there would wait for a matching attempt), its owner no reimbursement VAT.
      await ok('POST', `/cpo-evse/${M.evseUid}`, { connectors: [{ id: '1', standard: 'IEC_62196_T2', power_type: 'ac_3phase', max_power_kw: '22' }] });
      await ok('POST', `/customer/${M.customerId}`, { reimbursement_vat: 'Applies' });
      return settledCpoSession(app, (await submitSession(app, cpoSessionBody(M.evseUid), '/main/v1/cpo-charge-session')).id);
    })(),
  ]);
  const [versions, reimbursements, results] = await Promise.all([
    ok('GET', `/rate-plan/${M.ratePlanId}/version`),
    ok('GET', `/cpo-charge-session-reimbursement?arrangement_id=${M.arrangementId}`),
    ok('GET', `/msp-charge-session-priced?charge_session_id=${M.mspSessionId}`),
  ]);
  more = {
    finalBoxId: M.boxId,
    primaryFile: final.documents.find((d: { primary: boolean }) => d.primary).filename,
    xmlFile: final.documents.find((d: { filename: string }) => d.filename.endsWith('.xml'))?.filename,
    ratePlanVersionId: versions.items[0].id,
    cpoSessionId: cpoSession.id,
    reimbursementId: reimbursements.items[0]?.id,
    pricingResultId: results.items[0]?.id,
    operationId: operation.id,
    commandId: command.id,
  };
  const missing = Object.entries(more).filter(([, value]) => typeof value !== 'string' || value === '').map(([key]) => key);
  if (missing.length) throw new Error(`no ${missing.join(', ')}`);
  // Nothing changes between the two calls of a case: no job runs from here on.
  await app.stopWorker();
  openApi = (await app.request('GET', '/main/v1/openapi.json')).body;
});
test.after.always(async () => {
  await app?.close();
});

/** `GET /path/{param}` of every GET operation of the document, and its path parameters. */
function getOperations(): Map<string, string[]> {
  const operations = new Map<string, string[]>();
  for (const [path, item] of Object.entries(openApi.paths)) {
    if (item.get) operations.set(`GET ${path}`, (item.get.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name));
  }
  return operations;
}

const ADMIN_SLUG = 'an administration id is its slug (text chosen by the operator), not a uuid';

/** The cases of every GET operation with a path parameter (mine's records; the victim's where mine has none of the kind). */
function cases(): Record<string, Case[] | Skip> {
  const M = w.mine;
  const V = w.victim;
  const m = more;
  const one = (path: PathOf, options: Omit<Case, 'path'> = {}): Case[] => [{ path, ...options }];
  return {
    'GET /customer/{id}': one((id) => `/customer/${id(M.customerId)}`),
    'GET /customer/{id}/billing-address': one((id) => `/customer/${id(M.customerId)}/billing-address`),
    'GET /customer/{id}/direct-debit-mandate': one((id) => `/customer/${id(M.customerId)}/direct-debit-mandate`),
    'GET /billing-address/{id}': one((id) => `/billing-address/${id(M.addressId)}`),
    'GET /direct-debit-mandate/{id}': one((id) => `/direct-debit-mandate/${id(M.mandateId)}`),
    'GET /roaming-partner/{id}': one((id) => `/roaming-partner/${id(w.partnerId)}`),
    'GET /roaming-connection/{id}': one((id) => `/roaming-connection/${id(w.connectionId)}`),
    'GET /roaming-connection/{id}/ocpi': one((id) => `/roaming-connection/${id(w.connectionId)}/ocpi`),
    'GET /roaming-agreement/{id}': one((id) => `/roaming-agreement/${id(w.agreementId)}`),
    'GET /msp-roaming-command/{id}': one((id) => `/msp-roaming-command/${id(m.commandId)}`),
    'GET /end-user/{id}': one((id) => `/end-user/${id(M.endUserId)}`),
    'GET /end-user/{id}/authorization-customer': one((id) => `/end-user/${id(M.endUserId)}/authorization-customer`),
    'GET /end-user/{id}/authorization-msp-token-subscription': one((id) => `/end-user/${id(M.endUserId)}/authorization-msp-token-subscription`),
    // Its route takes the EVCO id in any casing (stored in upper case: the other call is in lower case).
    'GET /msp-token/{evco_id}': one((id) => `/msp-token/${id(M.evcoId)}`),
    'GET /msp-token-series/{id}': one((id) => `/msp-token-series/${id(M.tokenSeriesId)}`),
    'GET /msp-token-subscription/{id}': one((id) => `/msp-token-subscription/${id(M.subscriptionId)}`),
    'GET /msp-token-subscription/{id}/monetary-credit': one((id) => `/msp-token-subscription/${id(M.subscriptionId)}/monetary-credit`),
    'GET /msp-token-link/{id}': one((id) => `/msp-token-link/${id(M.tokenLinkId)}`),
    'GET /msp-token-subscription-plan/{id}': one((id) => `/msp-token-subscription-plan/${id(M.planId)}`),
    'GET /vat-rate/{id}': one((id) => `/vat-rate/${id(w.vatRateId)}`),
    'GET /rate-plan/{id}': one((id) => `/rate-plan/${id(M.ratePlanId)}`),
    'GET /rate-plan/{id}/version': one((id) => `/rate-plan/${id(M.ratePlanId)}/version`),
    'GET /rate-plan/{id}/version/{version_id}': one((id) => `/rate-plan/${id(M.ratePlanId)}/version/${id(m.ratePlanVersionId)}`),
    'GET /cpo-charge-session/{id}': one((id) => `/cpo-charge-session/${id(m.cpoSessionId)}`),
    'GET /msp-charge-session/{id}': one((id) => `/msp-charge-session/${id(M.mspSessionId)}`),
    'GET /msp-charge-session-priced/{id}': one((id) => `/msp-charge-session-priced/${id(m.pricingResultId)}`),
    'GET /msp-charge-session-original/{id}': one((id) => `/msp-charge-session-original/${id(M.mspSessionId)}`),
    'GET /msp-dropout-case/{id}': one((id) => `/msp-dropout-case/${id(M.mspDropoutCaseId)}`),
    'GET /cpo-dropout-case/{id}': one((id) => `/cpo-dropout-case/${id(M.cpoDropoutCaseId)}`),
    'GET /cpo-charge-session-reimbursement/{id}': one((id) => `/cpo-charge-session-reimbursement/${id(m.reimbursementId)}`),
    'GET /cpo-evse/{evse_uid}': { skip: 'an evse_uid is the operator\'s text, not a uuid' },
    'GET /cpo-evse-location/{location_id}': { skip: 'a location_id is the operator\'s text, not a uuid' },
    'GET /cpo-reimbursement-plan/{id}': one((id) => `/cpo-reimbursement-plan/${id(M.reimbursementPlanId)}`),
    'GET /cpo-reimbursement-plan/{id}/calculation-input': one((id) => `/cpo-reimbursement-plan/${id(M.reimbursementPlanId)}/calculation-input`),
    'GET /cpo-reimbursement-arrangement/{id}': one((id) => `/cpo-reimbursement-arrangement/${id(M.arrangementId)}`),
    'GET /cpo-reimbursement-arrangement/{id}/calculation-input': one((id) => `/cpo-reimbursement-arrangement/${id(M.arrangementId)}/calculation-input`),
    'GET /cpo-subscription-plan/{id}': one((id) => `/cpo-subscription-plan/${id(M.cpoPlanId)}`),
    'GET /cpo-subscription/{id}': one((id) => `/cpo-subscription/${id(M.cpoSubscriptionId)}`),
    'GET /cpo-subscription-evse-link/{id}': one((id) => `/cpo-subscription-evse-link/${id(M.cpoLinkId)}`),
    'GET /administration/{id}/billing-exchange-rate': { skip: ADMIN_SLUG },
    'GET /administration/{id}/billing-settings': { skip: ADMIN_SLUG },
    'GET /administration/{id}/billing-logo': { skip: ADMIN_SLUG },
    'GET /billing-series/{id}': one((id) => `/billing-series/${id(M.seriesId)}`),
    'GET /billing-reviewset-id/{id}': one((id) => `/billing-reviewset-id/${id(M.reviewSetId)}`),
    'GET /billing-review-set/{id}': one((id) => `/billing-review-set/${id(V.reviewSetId)}`),
    'GET /billing-review-set-operation/{id}': one((id) => `/billing-review-set-operation/${id(m.operationId)}`),
    // A finalized box (documents served) and an open one (the victim's: none yet).
    'GET /billing-box/{id}': [{ path: (id) => `/billing-box/${id(m.finalBoxId)}` }, { path: (id) => `/billing-box/${id(V.boxId)}` }],
    'GET /billing-box/{id}/document': [
      { path: (id) => `/billing-box/${id(m.finalBoxId)}/document` },
      { path: (id) => `/billing-box/${id(V.boxId)}/document`, status: 400 },
    ],
    'GET /billing-box/{id}/document/{filename}': [
      { path: (id) => `/billing-box/${id(m.finalBoxId)}/document/${m.primaryFile}` },
      { path: (id) => `/billing-box/${id(m.finalBoxId)}/document/${m.xmlFile}` },
    ],
    'GET /billing-box/{box_pub_id}/primary-document-preview': one((id) => `/billing-box/${id(m.finalBoxId)}/primary-document-preview`),
    'GET /billing-box/{id}/custom-billing-input': one((id) => `/billing-box/${id(m.finalBoxId)}/custom-billing-input`),
    'GET /billing-box/{id}/msp-charge-session': one((id) => `/billing-box/${id(m.finalBoxId)}/msp-charge-session`),
    'GET /billing-box/{id}/cpo-charge-session-reimbursement': one((id) => `/billing-box/${id(m.finalBoxId)}/cpo-charge-session-reimbursement`),
    'GET /billing-box/{id}/cpo-charge-session-roaming': one((id) => `/billing-box/${id(m.finalBoxId)}/cpo-charge-session-roaming`),
    'GET /webhook-subscription/{id}': one((id) => `/webhook-subscription/${id(M.webhookId)}`),
    'GET /webhook-subscription/{id}/delivery': one((id) => `/webhook-subscription/${id(M.webhookId)}/delivery`),

    // The App API, as mine's app credential, for mine's end user (authorized over mine's customer and subscription).
    'GET /{end_user_id}/msp-charge-session': one((id) => `/${id(M.endUserId)}/msp-charge-session`, { app: true }),
    'GET /{end_user_id}/msp-charge-session/{chargesession_id}': one((id) => `/${id(M.endUserId)}/msp-charge-session/${id(M.mspSessionId)}`, { app: true }),
    'GET /{end_user_id}/msp-token-subscription/{subscription_id}': one((id) => `/${id(M.endUserId)}/msp-token-subscription/${id(M.subscriptionId)}`, { app: true }),
    'GET /{end_user_id}/customer/{customer_id}/billing-box': one((id) => `/${id(M.endUserId)}/customer/${id(M.customerId)}/billing-box`, { app: true }),
    'GET /{end_user_id}/billing-box/{id}/document/{filename}': [
      { path: (id) => `/${id(M.endUserId)}/billing-box/${id(m.finalBoxId)}/document/${m.primaryFile}`, app: true },
      { path: (id) => `/${id(M.endUserId)}/billing-box/${id(m.finalBoxId)}/document/${m.xmlFile}`, app: true },
    ],
    'GET /{end_user_id}/msp-evse-group': one((id) => `/${id(M.endUserId)}/msp-evse-group?latitude=52.09&longitude=5.12`, { app: true }),
  };
}

/** The id in the other casing: upper case, or lower case for one stored in upper case (an EVCO id). */
const otherCasing = (raw: string) => (raw.toUpperCase() === raw ? raw.toLowerCase() : raw.toUpperCase());

const same = (a: Response, b: Response) => a.status === b.status && (Buffer.isBuffer(a.body) && Buffer.isBuffer(b.body)
  ? a.body.equals(b.body) : isDeepStrictEqual(a.body, b.body));

const show = (r: Response) => `${r.status} ${Buffer.isBuffer(r.body) ? `${r.body.length} bytes` : JSON.stringify(r.body)?.slice(0, 300)}`;

/** Runs `tasks` a few at a time. */
async function inBatches<T>(tasks: (() => Promise<T>)[], size = 6): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < tasks.length; i += size) results.push(...await Promise.all(tasks.slice(i, i + size).map((task) => task())));
  return results;
}

const report = (t: ExecutionContext, problems: string[]) => t.deepEqual(problems, []);

test.serial('every GET operation of the OpenAPI document with a path parameter has its cases or a reason it is out of scope', (t) => {
  const operations = getOperations();
  const named = [...operations].filter(([, params]) => params.length).map(([key]) => key).sort();
  t.true(named.length > 50, `${named.length} operations`);
  t.deepEqual(Object.keys(cases()).sort(), named, 'add the cases of a new GET operation to cases()');
  const counts = Object.values(cases()).reduce((sum, entry) => sum + ('skip' in entry ? 0 : 1), 0);
  t.log(`${counts} of ${operations.size} GET operations called (${operations.size - named.length} without a path parameter)`);
});

test.serial('REST: every GET operation answers ids in upper case as it answers them as stored', async (t) => {
  const plan = Object.entries(cases()).flatMap(([key, entry]) => ('skip' in entry ? [] : entry.map((c) => [key, c] as const)));
  const problems = await inBatches(plan.map(([key, c]) => async () => {
    const asStored = c.path((raw) => raw);
    const what = `${key} ${asStored}`;
    const request = (path: string) => app.request('GET', `/main/v1${path}`, { auth: c.app ? appCredential : unlimited });
    const [lower, upper] = await Promise.allSettled([request(asStored), request(c.path(otherCasing))]);
    // An answer outside the document (a 500 among them) is the check's error (test/helpers/openapi-check.ts).
    if (lower.status === 'rejected') return `${what}: as stored ${String(lower.reason)}`;
    if (upper.status === 'rejected') return `${what}: other casing ${String(upper.reason)}`;
    return compare(what, c, lower.value, upper.value);
  }));
  report(t, problems.filter((p) => p !== null));
});

/** What is wrong with the answers of a case (null: nothing). */
function compare(what: string, c: Case, lower: Response, upper: Response): string | null {
  if (lower.status !== (c.status ?? 200)) return `${what}: as stored ${show(lower)} (the case names no record the caller sees?)`;
  if (upper.status >= 500) return `${what}: other casing ${show(upper)}`;
  if (!same(lower, upper)) return `${what}: as stored ${show(lower)}\n      other casing ${show(upper)}`;
  return null;
}

// --- GraphQL ---

const schema = buildSchema(readFileSync(new URL('../../../schema/schema.graphql', import.meta.url), 'utf8'));

/** A field's selection: its leaves, and the leaves of the objects it holds (no connections, no field that needs an argument). */
function selection(type: GraphQLObjectType, depth = 0): string {
  const parts = ['__typename'];
  for (const field of Object.values(type.getFields()) as GraphQLField<unknown, unknown>[]) {
    if (field.args.some((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined)) continue;
    const named = getNamedType(field.type);
    if (isLeafType(named)) parts.push(field.name);
    else if (isObjectType(named) && depth === 0 && !named.name.endsWith('Connection')) parts.push(`${field.name} { ${selection(named, 1)} }`);
    else if ((isInterfaceType(named) || isUnionType(named)) && depth === 0) parts.push(`${field.name} { __typename }`);
  }
  return parts.join(' ');
}

/** Root query fields (and the App API's viewer fields) with an `id: ID!` argument: the database ids they are called with, or why not. */
function graphqlCases(): Record<string, string[] | Skip> {
  const M = w.mine;
  const m = more;
  return {
    administration: { skip: ADMIN_SLUG },
    node: { skip: 'takes global ids only (base64 of type and id: another casing is another string)' },
    billingBox: [m.finalBoxId, w.victim.boxId],
    billingReviewSet: [M.reviewSetId, w.victim.reviewSetId],
    billingReviewSetOperation: [m.operationId],
    chargeSession: [M.mspSessionId, m.cpoSessionId],
    customer: [M.customerId],
    endUser: [M.endUserId],
    ratePlan: [M.ratePlanId],
    roamingCommand: [m.commandId],
    subscriptionPlan: [M.planId],
    tokenSubscription: [M.subscriptionId],
    vatRate: [w.vatRateId],
    'viewer.billingBox': [m.finalBoxId],
    'viewer.chargeSession': [M.mspSessionId],
    'viewer.subscription': [M.subscriptionId],
  };
}

const withId = (type: GraphQLObjectType) => Object.values(type.getFields())
  .filter((field) => field.args.some((arg) => arg.name === 'id' && String(arg.type) === 'ID!'));

test.serial('every root query field (and viewer field) of schema/schema.graphql with an `id: ID!` argument has its cases or a reason it is out of scope', (t) => {
  const viewer = schema.getType('Viewer') as GraphQLObjectType;
  const fields = [...withId(schema.getQueryType()!).map((f) => f.name), ...withId(viewer).map((f) => `viewer.${f.name}`)].sort();
  t.true(fields.length > 10, `${fields.length} fields`);
  t.deepEqual(Object.keys(graphqlCases()).sort(), fields, 'add the cases of a new field to graphqlCases()');
});

test.serial('GraphQL: every field with an `id: ID!` argument answers a database id in upper case as it answers it as stored', async (t) => {
  const plan = Object.entries(graphqlCases()).flatMap(([key, entry]) => ('skip' in entry ? [] : entry.map((id) => [key, id] as const)));
  const problems = await inBatches(plan.map(([key, id]) => async () => {
    const inViewer = key.startsWith('viewer.');
    const name = inViewer ? key.slice('viewer.'.length) : key;
    const parent = inViewer ? schema.getType('Viewer') as GraphQLObjectType : schema.getQueryType()!;
    const query = `query ($id: ID!) { ${key.replace(/^viewer\./, 'viewer { ')}(id: $id) { ${selection(getNamedType(parent.getFields()[name].type) as GraphQLObjectType)} }${inViewer ? ' }' : ''} }`;
    const call = (casing: (raw: string) => string) => app.request('POST', '/graphql', {
      body: { query, variables: { id: casing(id) } }, auth: inViewer ? appCredential : unlimited,
      headers: inViewer ? { 'x-svc-end-user': casing(w.mine.endUserId) } : {},
    });
    const [lower, upper] = await Promise.all([call((raw) => raw), call(otherCasing)]);
    const what = `${key}(id: "${id}")`;
    const answer = (r: Response) => (inViewer ? r.body?.data?.viewer?.[name] : r.body?.data?.[name]);
    if (lower.status !== 200 || lower.body.errors || !answer(lower)) return `${what}: as stored ${show(lower)} (the case names no record the caller sees?)`;
    if (!same(lower, upper)) return `${what}: as stored ${show(lower)}\n      other casing ${show(upper)}`;
    return null;
  }));
  report(t, problems.filter((p) => p !== null));
});
