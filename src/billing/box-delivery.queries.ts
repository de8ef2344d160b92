// The delivery states of boxes (REST GET /billing-box-delivery-state): plain data, seek paging by id.
import type { Em } from '../platform/orm.ts';
import { SeekList } from '../platform/seek-page.ts';
import { BoxDelivery } from './box-delivery.entity.ts';

export interface DeliveryData {
  id: string;
  boxId: string;
  channel: string;
  state: string;
  externalReference: string | null;
  detail: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A delivery from a row (or an entity's values) of the table. */
export const deliveryData = (row: Record<string, any>): DeliveryData => ({
  id: row.id, boxId: typeof row.box === 'object' ? row.box.id : row.box, channel: row.channel, state: row.state,
  externalReference: row.externalReference ?? null, detail: row.detail ?? null, createdAt: row.createdAt, updatedAt: row.updatedAt,
});

export function deliveryList(em: Em, filter: { boxId?: string } = {}): SeekList<DeliveryData> {
  return new SeekList<DeliveryData>(em, { entity: BoxDelivery, where: filter.boxId ? { box: filter.boxId } : {}, map: deliveryData });
}
