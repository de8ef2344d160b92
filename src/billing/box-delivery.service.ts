// Delivery states of a box's documents (decisions.md): POST creates, POST on {id} merge-updates (the
// list is in box-delivery.queries.ts).
import type { Em } from '../platform/orm.ts';
import { DomainError, InvalidInputError } from '../platform/errors.ts';
import { flushUnique } from '../platform/flush-unique.ts';
import { isUuid } from '../platform/ids.ts';
import { BillingBox } from './billing-box.entity.ts';
import { BoxDelivery, DELIVERY_CHANNELS, DELIVERY_STATES } from './box-delivery.entity.ts';
import { deliveryData, type DeliveryData } from './box-delivery.queries.ts';

export interface DeliveryInput {
  boxId?: string | null;
  channel?: string | null;
  state?: string | null;
  externalReference?: string | null;
  detail?: string | null;
}

const UNIQUE = { billing_box_delivery_external_reference_unique: ['external_reference'] };

function apply(delivery: BoxDelivery, input: DeliveryInput): void {
  if (input.channel !== undefined) {
    if (!input.channel || !(DELIVERY_CHANNELS as readonly string[]).includes(input.channel)) {
      throw new InvalidInputError(`channel must be one of ${DELIVERY_CHANNELS.join(', ')}`, { path: ['channel'] });
    }
    delivery.channel = input.channel as BoxDelivery['channel'];
  }
  if (input.state !== undefined) {
    if (!input.state || !(DELIVERY_STATES as readonly string[]).includes(input.state)) {
      throw new InvalidInputError(`state must be one of ${DELIVERY_STATES.join(', ')}`, { path: ['state'] });
    }
    delivery.state = input.state as BoxDelivery['state'];
  }
  if (input.externalReference !== undefined) delivery.externalReference = input.externalReference;
  if (input.detail !== undefined) delivery.detail = input.detail;
}

export async function createDelivery(em: Em, input: DeliveryInput): Promise<DeliveryData> {
  if (!input.boxId) throw new InvalidInputError('box_id is required', { path: ['box_id'] });
  if (!input.channel) throw new InvalidInputError('channel is required', { path: ['channel'] });
  const box = isUuid(input.boxId) ? await em.findOne(BillingBox, { id: input.boxId }) : null;
  if (!box) throw new DomainError('not_found', `billing box ${input.boxId} does not exist`, { path: ['box_id'] });
  const delivery = em.create(BoxDelivery, { admin: box.admin, box, channel: 'other', state: 'pending' });
  apply(delivery, input);
  await flushUnique(em, UNIQUE);
  return deliveryData({ ...delivery, box: box.id });
}

export async function updateDelivery(em: Em, id: string, input: DeliveryInput): Promise<DeliveryData> {
  const delivery = isUuid(id) ? await em.findOne(BoxDelivery, { id }) : null;
  if (!delivery) throw new DomainError('not_found', `billing box delivery ${id} does not exist`);
  apply(delivery, { ...input, boxId: undefined });
  await flushUnique(em, UNIQUE);
  return deliveryData({ ...delivery, box: delivery.box.id });
}
