import * as yup from 'yup';
import { createDelivery, updateDelivery } from '../../src/billing/box-delivery.service.ts';
import { deliveryList, type DeliveryData } from '../../src/billing/box-delivery.queries.ts';
import { externalRef, iso, text, uuid } from '../../src/platform/input-schemas.ts';
import { seekPage } from '../rails/pagination.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { representation, t, type Infer } from '../rails/shape.ts';

const TAG = 'Billing';

const deliveryShape = representation('BillingBoxDelivery', {
  id: t.string(),
  box_id: t.string(),
  channel: t.string('email, post, peppol, portal or other'),
  state: t.string('pending, sent, delivered or failed'),
  external_reference: t.nullable(t.string()),
  detail: t.nullable(t.string()),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

const serialize = (d: DeliveryData): Infer<typeof deliveryShape> => ({
  id: d.id, box_id: d.boxId, channel: d.channel, state: d.state, external_reference: d.externalReference, detail: d.detail,
  created_at: iso(d.createdAt), updated_at: iso(d.updatedAt),
});

const body = yup.object({
  box_id: text(64).nullable(), channel: text(16).nullable(), state: text(16).nullable(), external_reference: externalRef().nullable(),
  detail: text(2000).nullable(),
});

const input = (b: yup.InferType<typeof body>) => ({ boxId: b.box_id, channel: b.channel, state: b.state, externalReference: b.external_reference, detail: b.detail });

export const billingDeliveryRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/billing-box-delivery-state', tag: TAG, paged: true, response: deliveryShape,
    summary: 'List delivery states of billing boxes', query: yup.object({ box_id: uuid() }),
    handler: async ({ ctx, em, query, rawQuery }) => seekPage(ctx, { list: deliveryList(em, { boxId: query.box_id }), rawQuery, path: ctx.path, serialize }),
  }),
  defineRoute({
    method: 'post', path: '/billing-box-delivery-state', tag: TAG, graphql: 'createBillingBoxDelivery', body, response: deliveryShape,
    summary: 'Record how a box was delivered (box_id and channel required)',
    handler: async ({ em, body: b }) => serialize(await createDelivery(em, input(b))),
  }),
  defineRoute({
    method: 'post', path: '/billing-box-delivery-state/:id', tag: TAG, graphql: 'updateBillingBoxDelivery', body, response: deliveryShape,
    summary: 'Merge-update a delivery state (the box is fixed)',
    handler: async ({ em, body: b, params }) => serialize(await updateDelivery(em, params.id, input(b))),
  }),
];
