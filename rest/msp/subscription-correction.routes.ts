import * as yup from 'yup';
import { tokenSubscriptionDetails } from '../../src/msp/token-subscription.queries.ts';
import { correctPlanOrCustomer, type CorrectionData } from '../../src/msp/subscription-correction.service.ts';
import type { Em } from '../../src/platform/orm.ts';
import { checkedTimestamp } from '../../src/platform/timestamp.ts';
import { defineRoute, type RouteDef, type RouteInput } from '../rails/route.ts';
import { externalRef, iso, text, timestamp } from '../../src/platform/input-schemas.ts';
import { representation, t, type Infer } from '../rails/shape.ts';
import { serializeTokenSubscription, tokenSubscriptionShape } from './token-subscription.routes.ts';

const TAG = 'MSP token subscriptions';

const correctionShape = representation('PlanOrCustomerCorrection', {
  old_subscription: tokenSubscriptionShape,
  new_subscription: tokenSubscriptionShape,
  correction: t.object({ id: t.string(), valid_from: t.timestamp(), recurring_cost_correction: t.boolean(), created_at: t.timestamp() }),
});

const correctionBody = yup.object({
  valid_from: timestamp().defined('${path} is required'),
  new_plan_id: text(64).nullable(),
  new_plan_external_reference: text().nullable(),
  new_customer_id: text(64).nullable(),
  new_customer_external_reference: text().nullable(),
  new_external_reference: externalRef().nullable(),
  recurring_cost_correction: yup.boolean().nullable(),
});

type CorrectionBody = yup.InferType<typeof correctionBody>;

const description = 'Splits the subscription at valid_from (which may lie in the past, but after the subscription\'s '
  + 'valid_from and before its valid_until): the subscription ends there, and a new one with the same administration, '
  + 'buyer_reference and custom_fields, the new plan and/or customer, runs from valid_from to the old valid_until. '
  + 'The new one has no external_reference unless new_external_reference is given. Token links valid at or after '
  + 'valid_from move over seamlessly (the old link ends where the new one starts; a link starting at or after '
  + 'valid_from becomes defunct and is re-created whole), and the monetary credit balance moves along at valid_from '
  + '(at once when it lies in the past; until a valid_from in the future the old subscription keeps using it). Sessions '
  + 'since valid_from are repriced. recurring_cost_correction true also bills the fees of the periods already billed again (the old customer credited, the new one billed).';

async function presentCorrection(em: Em, result: CorrectionData): Promise<Infer<typeof correctionShape>> {
  const [oldSubscription, newSubscription] = await tokenSubscriptionDetails(em, [result.oldSubscription.id, result.newSubscription.id]);
  return {
    old_subscription: serializeTokenSubscription(oldSubscription),
    new_subscription: serializeTokenSubscription(newSubscription),
    correction: {
      id: result.correction.id,
      valid_from: iso(result.correction.correctedFrom),
      recurring_cost_correction: result.correction.recurringCostCorrection,
      created_at: iso(result.correction.createdAt),
    },
  };
}

const correct = async ({ em, params, body }: RouteInput<CorrectionBody, unknown>) => presentCorrection(em, await correctPlanOrCustomer(em, params.id, {
  validFrom: checkedTimestamp(body.valid_from),
  newPlanId: body.new_plan_id,
  newPlanExternalReference: body.new_plan_external_reference,
  newCustomerId: body.new_customer_id,
  newCustomerExternalReference: body.new_customer_external_reference,
  newExternalReference: body.new_external_reference,
  recurringCostCorrection: body.recurring_cost_correction,
}));

export const subscriptionCorrectionRoutes: RouteDef[] = [
  defineRoute({
    method: 'post', path: '/msp-token-subscription/:id/plan-or-customer-correction', tag: TAG, graphql: 'correctPlanOrCustomer',
    summary: 'Correct the plan and/or customer of a subscription from a moment on', description,
    body: correctionBody, response: correctionShape, handler: correct,
  }),
  defineRoute({
    method: 'put', path: '/msp-token-subscription/:id/plan-or-customer-correction', tag: TAG, deprecated: true,
    summary: 'Correct the plan and/or customer of a subscription (deprecated: use POST)', description,
    body: correctionBody, response: correctionShape, handler: correct,
  }),
];
