import * as yup from 'yup';
import {
  createReimbursementPlan, setCalculationInput, switchArrangementPlan, updateReimbursementPlan, type PlanInput,
} from '../../src/cpo/reimbursement-plan.service.ts';
import {
  calculationInputs, getReimbursementPlan, reimbursementPlans, type CalculationInputData, type InputOwnerRef, type ReimbursementPlanData,
} from '../../src/cpo/reimbursement.queries.ts';
import { normalize } from '../../src/money/decimal.ts';
import { externalRef, iso, isoDate, text, timestamp } from '../../src/platform/input-schemas.ts';
import { DEPRECATED_WINDOW, deprecatedWindowValues, inShapeOrder, planShape, planValues } from '../rails/contracts.ts';
import { orDeprecated } from '../rails/patch.ts';
import { listOf } from '../rails/pagination.ts';
import { defineRoute, type RouteDef, type RouteInput } from '../rails/route.ts';
import { representation, t, type Infer } from '../rails/shape.ts';
import { arrangementShape, presentArrangement } from './reimbursement.routes.ts';

const TAG = 'CPO reimbursement';

export const reimbursementPlanShape = planShape('ReimbursementPlan', {
  described: {
    mode: t.string('cpms_supplied (the CPMS states the amount) or calculated (from the calculation inputs)'),
    components: t.array(t.string()),
    script: t.nullable(t.string()),
  },
  published: DEPRECATED_WINDOW,
});

const inputShape = representation('CalculationInput', {
  id: t.string(), valid_from: t.timestamp(), component_type: t.string(), var_name: t.nullable(t.string()), value: t.decimal(), updated_at: t.timestamp(),
});

const serializePlan = (p: ReimbursementPlanData): Infer<typeof reimbursementPlanShape> =>
  inShapeOrder(reimbursementPlanShape, { ...planValues(p), ...deprecatedWindowValues(p), mode: p.mode, components: p.components, script: p.script ?? null });

const serializeInput = (i: CalculationInputData): Infer<typeof inputShape> => ({
  id: i.id, valid_from: iso(i.validFrom), component_type: i.componentType, var_name: i.varName || null, value: normalize(i.value), updated_at: iso(i.updatedAt),
});

const planBody = yup.object({
  admin_id: text(64).nullable(), name: text().nullable(), description: text(10000).nullable(), mode: text(32).nullable(),
  components: yup.array(text(32).defined()).max(20).nullable(), script: text(10000).nullable(), publish_from: timestamp().nullable(), publish_until: timestamp().nullable(),
  valid_from: timestamp().nullable(), valid_until: timestamp().nullable(), external_reference: externalRef().nullable(),
});
const planInput = (b: yup.InferType<typeof planBody>): PlanInput => ({
  adminId: b.admin_id, name: b.name, description: b.description, mode: b.mode, components: b.components as string[] | null | undefined, script: b.script,
  // valid_from and valid_until are the deprecated names of the publishing window.
  publishFrom: isoDate(orDeprecated(b.publish_from, b.valid_from)), publishUntil: isoDate(orDeprecated(b.publish_until, b.valid_until)),
  externalReference: b.external_reference,
});

const valueBody = yup.object({ value: yup.string().nullable().defined('${path} is required (null removes the input)') });

/** GET, PUT and DELETE of one owner's calculation inputs (a plan's, an arrangement's). */
function inputRoutes(resource: string, kind: InputOwnerRef['kind']): RouteDef[] {
  const owner = (i: RouteInput<unknown, unknown>): InputOwnerRef => ({ kind, id: i.params.id });
  const set = (i: RouteInput<{ value?: string | null }, unknown>, value: string | null) =>
    setCalculationInput(i.em, owner(i), i.params.valid_from, i.params.component_type ?? 'custom', i.params.var_name ?? '', value)
      .then((inputs) => inputs.map(serializeInput));
  const routes: RouteDef[] = [defineRoute({
    method: 'get', path: `/${resource}/:id/calculation-input`, tag: TAG, response: t.array(inputShape),
    summary: `The calculation inputs of a ${kind === 'plan' ? 'reimbursement plan' : 'reimbursement arrangement'} (an array, by valid_from)`,
    handler: async (i) => (await calculationInputs(i.em, owner(i))).map(serializeInput),
  })];
  for (const tail of [':valid_from/:component_type', ':valid_from/custom/:var_name']) {
    const path = `/${resource}/:id/calculation-input/${tail}`;
    routes.push(defineRoute({
      method: 'put', path, tag: TAG, graphql: 'setCalculationInput', body: valueBody, response: t.array(inputShape),
      summary: 'Set an input from a date (YYYY-MM-DD, local midnight of the administration); a null value removes it',
      description: kind === 'arrangement' ? "An arrangement's input wins over its plan's for the same component." : undefined,
      handler: (i) => set(i, i.body.value ?? null),
    }), defineRoute({
      method: 'delete', path, tag: TAG, graphql: 'setCalculationInput', response: t.array(inputShape), summary: 'Remove an input', handler: (i) => set(i, null),
    }));
  }
  return routes;
}

export const reimbursementPlanRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/cpo-reimbursement-plan', tag: TAG, response: listOf(reimbursementPlanShape), summary: 'List reimbursement plans (not paged)',
    handler: async ({ em }) => ({ items: (await reimbursementPlans(em)).map(serializePlan) }),
  }),
  defineRoute({
    method: 'post', path: '/cpo-reimbursement-plan', tag: TAG, graphql: 'createReimbursementPlan', extension: true, body: planBody, response: reimbursementPlanShape,
    summary: 'Create a reimbursement plan', handler: async ({ em, body }) => serializePlan(await createReimbursementPlan(em, planInput(body))),
  }),
  defineRoute({
    method: 'get', path: '/cpo-reimbursement-plan/:id', tag: TAG, response: reimbursementPlanShape, summary: 'Get a reimbursement plan',
    handler: async ({ em, params }) => serializePlan(await getReimbursementPlan(em, params.id)),
  }),
  defineRoute({
    method: 'post', path: '/cpo-reimbursement-plan/:id', tag: TAG, graphql: 'updateReimbursementPlan', extension: true, body: planBody, response: reimbursementPlanShape,
    summary: 'Merge-update a reimbursement plan (valid_from/valid_until: deprecated names of publish_from/publish_until)',
    handler: async ({ em, params, body }) => serializePlan(await updateReimbursementPlan(em, params.id, planInput(body))),
  }),
  ...inputRoutes('cpo-reimbursement-plan', 'plan'),
  ...inputRoutes('cpo-reimbursement-arrangement', 'arrangement'),
  defineRoute({
    method: 'post', path: '/cpo-reimbursement-arrangement/:id/switch-plan', tag: TAG, graphql: 'switchReimbursementPlan', response: arrangementShape,
    body: yup.object({ plan_id: text(64).defined('${path} is required') }),
    summary: 'Switch the reimbursement plan of an arrangement',
    handler: async ({ em, params, body }) => presentArrangement(em, await switchArrangementPlan(em, params.id, body.plan_id)),
  }),
];
