// How a box's documents were delivered (REST: /billing-box-delivery-state): create and merge-update.
import * as yup from 'yup';
import { createDelivery, updateDelivery, type DeliveryInput } from '../../src/billing/box-delivery.service.ts';
import type { DeliveryData } from '../../src/billing/box-delivery.queries.ts';
import { externalRef, text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { builder } from '../builder.ts';
import { mutate } from '../mutation.ts';
import { BillingBox, boxId } from './billing-box.ts';
import { DateTime } from './date-time.ts';

const BillingBoxDelivery = builder.objectRef<DeliveryData>('BillingBoxDelivery').implement({
  description: 'How a box was delivered, and how far (REST: /billing-box-delivery-state/{id}).',
  fields: (t) => ({
    databaseId: t.exposeString('id'),
    boxId: t.exposeString('boxId'),
    box: t.field({ type: BillingBox, nullable: true, resolve: (d) => d.boxId }),
    channel: t.exposeString('channel', { description: 'email, post, peppol, portal or other.' }),
    state: t.exposeString('state', { description: 'pending, sent, delivered or failed.' }),
    externalReference: t.string({ nullable: true, resolve: (d) => d.externalReference }),
    detail: t.string({ nullable: true, resolve: (d) => d.detail }),
    createdAt: t.field({ type: DateTime, resolve: (d) => d.createdAt }),
    updatedAt: t.field({ type: DateTime, resolve: (d) => d.updatedAt }),
  }),
});

const deliveryFields = {
  channel: 'email, post, peppol, portal or other.',
  state: 'pending (the default), sent, delivered or failed.',
  externalReference: 'Unique in the instance.',
  detail: 'At most 2,000 characters.',
} as const;

const CreateBillingBoxDeliveryInput = builder.inputType('CreateBillingBoxDeliveryInput', {
  description: 'A delivery of a box.',
  fields: (t) => ({
    boxId: t.id({ required: true, description: 'Global ID or REST id of the box.' }),
    channel: t.string({ required: true, description: deliveryFields.channel }),
    state: t.string({ description: deliveryFields.state }),
    externalReference: t.string({ description: deliveryFields.externalReference }),
    detail: t.string({ description: deliveryFields.detail }),
  }),
});

const BillingBoxDeliveryInput = builder.inputType('BillingBoxDeliveryInput', {
  description: 'JSON Merge Patch semantics: an absent field keeps its value, null clears it. The box is fixed.',
  fields: (t) => ({
    channel: t.string({ description: deliveryFields.channel }),
    state: t.string({ description: deliveryFields.state }),
    externalReference: t.string({ description: deliveryFields.externalReference }),
    detail: t.string({ description: deliveryFields.detail }),
  }),
});

/** What GraphQL types cannot say; the same rules as the REST body. */
const rules = yup.object({ channel: text(16).nullable(), state: text(16).nullable(), externalReference: externalRef().nullable(), detail: text(2000).nullable() });

function deliveryInput(input: typeof BillingBoxDeliveryInput.$inferInput): DeliveryInput {
  validate(rules, input);
  return input as DeliveryInput;
}

builder.mutationFields((t) => ({
  createBillingBoxDelivery: t.field({
    type: BillingBoxDelivery, nullable: true,
    description: 'Records how a box was delivered (REST: POST /billing-box-delivery-state).',
    args: { input: t.arg({ type: CreateBillingBoxDeliveryInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => {
      const { boxId: box, ...fields } = args.input;
      return createDelivery(em, { ...deliveryInput(fields), boxId: boxId(box) });
    }),
  }),
  updateBillingBoxDelivery: t.field({
    type: BillingBoxDelivery, nullable: true,
    description: 'Merge-updates a delivery state (REST: POST /billing-box-delivery-state/{id}).',
    args: { id: t.arg.id({ required: true, description: 'The REST id (databaseId).' }), input: t.arg({ type: BillingBoxDeliveryInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => updateDelivery(em, String(args.id), deliveryInput(args.input))),
  }),
}));
