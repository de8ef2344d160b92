// EVSE and reimbursement link reads of the CPO routes: scope and seek paging in one place
// (the CPO issue adds its filters and GraphQL here).
import type { Em } from '../platform/orm.ts';
import { SeekList } from '../platform/seek-page.ts';
import { Evse } from './evse.entity.ts';
import { ReimbursementLink } from './reimbursement-link.entity.ts';

export function evseList(em: Em): SeekList<Evse> {
  return new SeekList<Evse>(em, { entity: Evse, entities: true, populate: ['location'] });
}

export function reimbursementLinkList(em: Em, filter: { arrangementId?: string; evseUid?: string } = {}): SeekList<ReimbursementLink> {
  const where = {
    ...(filter.arrangementId ? { arrangement: filter.arrangementId } : {}),
    ...(filter.evseUid ? { evse: { evseUid: filter.evseUid } } : {}),
  };
  return new SeekList<ReimbursementLink>(em, { entity: ReimbursementLink, where, entities: true, populate: ['arrangement', 'evse'] });
}
