// What the reimbursement of a processing batch's CPO sessions reads, with one query per kind:
// the EVSEs' links with arrangement, owner, plan and administration, and the calculation inputs
// of those plans and arrangements.
import type { Em } from '../platform/orm.ts';
import type { VatRate } from '../pricing/vat-rate.entity.ts';
import { CalculationInput } from './calculation-input.entity.ts';
import type { InputValue } from './calculation-inputs.ts';
import type { Evse } from './evse.entity.ts';
import type { ReimbursementContext } from './reimburse-session.ts';
import { ReimbursementLink } from './reimbursement-link.entity.ts';

export async function reimbursementContext(em: Em, evses: Evse[], vatRateAt: ReimbursementContext['vatRateAt']): Promise<ReimbursementContext> {
  const links = evses.length
    ? await em.find(ReimbursementLink, { evse: { $in: evses.map((e) => e.id) }, defunct: false }, {
      populate: ['arrangement', 'arrangement.customer', 'arrangement.plan', 'arrangement.admin'], filters: false,
    })
    : [];
  const owners = [...new Set(links.flatMap((l) => [l.arrangement.id, ...(l.arrangement.plan ? [l.arrangement.plan.id] : [])]))];
  const inputs = owners.length ? await em.find(CalculationInput, { ownerId: { $in: owners } }, { filters: false }) : [];
  return {
    linksOf: (evse) => links.filter((l) => l.evse.id === evse.id),
    inputsOf: (owner, ownerId): InputValue[] => inputs.filter((i) => i.ownerKind === owner && i.ownerId === ownerId),
    vatRateAt: (country, kind, at): VatRate | undefined => vatRateAt(country, kind, at),
  };
}
