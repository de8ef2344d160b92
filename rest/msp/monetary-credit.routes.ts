import * as yup from 'yup';
import { normalize } from '../../src/money/decimal.ts';
import { CREDIT_KINDS } from '../../src/msp/monetary-credit.entity.ts';
import { changeMonetaryCredit, type CreditState } from '../../src/msp/monetary-credit.service.ts';
import { monetaryCreditList, type MonetaryCreditData } from '../../src/msp/token-subscription.queries.ts';
import { seekPage } from '../rails/pagination.ts';
import { defineRoute, type RouteDef, type RouteInput } from '../rails/route.ts';
import { iso, text } from '../../src/platform/input-schemas.ts';
import { representation, t, type Infer } from '../rails/shape.ts';

const TAG = 'MSP token subscriptions';

export const creditMovementShape = representation('MonetaryCreditMovement', {
  id: t.string(),
  subscription_id: t.string(),
  kind: t.enum(CREDIT_KINDS),
  amount: t.decimal(),
  balance_after: t.decimal(),
  description: t.nullable(t.string()),
  session_id: t.nullable(t.string()),
  created_at: t.timestamp(),
});

export const creditStateShape = representation('MonetaryCreditState', {
  subscription_id: t.string(),
  monetary_credit_balance: t.decimal(),
  currency: t.string(),
  last_movement: t.nullable(creditMovementShape),
});

export function serializeCreditMovement(m: MonetaryCreditData): Infer<typeof creditMovementShape> {
  return {
    id: m.id,
    subscription_id: m.subscription.id,
    kind: m.kind,
    amount: normalize(m.amount),
    balance_after: normalize(m.balanceAfter),
    description: m.description ?? null,
    session_id: m.sessionId ?? null,
    created_at: iso(m.createdAt),
  };
}

export function serializeCreditState(state: CreditState): Infer<typeof creditStateShape> {
  return {
    subscription_id: state.subscription.id,
    monetary_credit_balance: normalize(state.subscription.monetaryCreditBalance),
    currency: state.currency,
    last_movement: state.lastMovement ? serializeCreditMovement(state.lastMovement) : null,
  };
}

const creditBody = yup.object({
  amount: yup.string().defined('${path} is required'),
  description: text().nullable(),
});

type CreditBody = yup.InferType<typeof creditBody>;

const description = 'Adds a movement to the subscription\'s monetary credit (excl. VAT, in the administration\'s currency): '
  + 'a positive amount is a grant, a negative one a correction. The balance never goes below zero '
  + '(400 insufficient_credit) nor reaches 10^14 (400 credit_limit); a defunct subscription takes corrections only '
  + '(a grant: 400 subscription_defunct). Answers the credit state with the movement just made.';

const change = ({ em, params, body }: RouteInput<CreditBody, unknown>) =>
  changeMonetaryCredit(em, params.id, body).then(serializeCreditState);

export const monetaryCreditRoutes: RouteDef[] = [
  defineRoute({
    method: 'post', path: '/msp-token-subscription/:id/monetary-credit', tag: TAG, graphql: 'addMonetaryCredit',
    summary: 'Grant or correct monetary credit', description, body: creditBody, response: creditStateShape, handler: change,
  }),
  defineRoute({
    method: 'put', path: '/msp-token-subscription/:id/monetary-credit', tag: TAG, deprecated: true,
    summary: 'Grant or correct monetary credit (deprecated: use POST)', description, body: creditBody, response: creditStateShape, handler: change,
  }),
  defineRoute({
    method: 'get', path: '/msp-token-subscription/:id/monetary-credit', tag: TAG, extension: true, paged: true,
    summary: 'List the monetary credit movements of a subscription (oldest first)', response: creditMovementShape,
    handler: async ({ ctx, em, params, rawQuery }) => {
      const { subscription, movements } = await monetaryCreditList(em, params.id);
      return seekPage(ctx, {
        list: movements, rawQuery, path: `/main/v1/msp-token-subscription/${subscription.id}/monetary-credit`, serialize: serializeCreditMovement,
      });
    },
  }),
];
