// Roaming agreements: create and merge-update. Only a locally owned connection has agreements,
// with that connection's partner. Validity is [valid_from, valid_until) (src/platform/validity.ts);
// two live agreements of one connection and role may not overlap (`overlapping_roaming_agreement`),
// nor two live `cpo` agreements of one partner on any of its connections (a CPO session cannot name
// its connection; an MSP session can), so a session start selects at most one. Defunct is final.
// Agreements serve every administration: only a credential without a limit changes them.
import { callerScope } from '../access/admin-scope.ts';
import { assertMayChangeInstanceWide } from '../access/instance-wide.ts';
import { RoamingPartner } from '../parties/roaming-partner.entity.ts';
import { DomainError, InvalidInputError, NotFoundError } from '../platform/errors.ts';
import { assertExternalReferenceFree, setsOtherExternalReference } from '../platform/external-reference.ts';
import { flushUnique } from '../platform/flush-unique.ts';
import { isUuid } from '../platform/ids.ts';
import { applyPatch, type Patch } from '../platform/merge-patch.ts';
import type { Em } from '../platform/orm.ts';
import { assertValidityOrdered, overlapping } from '../platform/validity.ts';
import { RatePlan } from '../pricing/rate-plan.entity.ts';
import type { VatKind } from '../pricing/vat-rate.entity.ts';
import { RoamingAgreement, type AgreementRole } from './roaming-agreement.entity.ts';
import { RoamingConnection } from './roaming-connection.entity.ts';
import { roamingAgreementData, type RoamingAgreementData } from './roaming.queries.ts';

export interface AgreementFields {
  role: AgreementRole;
  validFrom: Date;
  validUntil: Date;
  defunct: boolean;
  ratePlanId: string;
  vatKind: VatKind;
  externalReference: string;
}

type AgreementInput = Patch<AgreementFields> & { connectionId?: string | null; partnerId?: string | null };

const UNIQUE = { roaming_agreement_external_reference_unique: ['external_reference'] };

/** The agreement to change; else 400 not_found. */
async function agreementToChange(em: Em, id: string): Promise<RoamingAgreement> {
  const agreement = isUuid(id) ? await em.findOne(RoamingAgreement, { id }) : null;
  if (!agreement) throw new NotFoundError('roaming agreement');
  return agreement;
}

async function connectionOf(em: Em, id: string | null | undefined): Promise<RoamingConnection> {
  const connection = id && isUuid(id) ? await em.findOne(RoamingConnection, { id }) : null;
  if (!connection) throw new NotFoundError('roaming connection', { path: ['connection_id'] });
  if (connection.kind !== 'locally_owned') {
    throw new InvalidInputError('a provider-facilitated connection never has an agreement', { path: ['connection_id'] });
  }
  return connection;
}

async function check(em: Em, agreement: RoamingAgreement): Promise<void> {
  assertValidityOrdered(agreement.validFrom, agreement.validUntil);
  if (agreement.ratePlanId) {
    const plan = isUuid(agreement.ratePlanId) ? await em.findOne(RatePlan, { id: agreement.ratePlanId }, { filters: false }) : null;
    if (!plan) throw new NotFoundError('rate plan', { path: ['rate_plan_id'] });
  }
  if (agreement.defunct) return;
  // Serializes writers of one partner's agreements (a connection's partner is fixed while it has
  // agreements), so two overlapping ones cannot both pass, on one connection or, `cpo`, across them.
  await em.execute(`select pg_advisory_xact_lock(hashtext(?))`, [`roaming_agreement:${agreement.partner.id}`]);
  const others = { role: agreement.role, defunct: false, ...(agreement.id ? { id: { $ne: agreement.id } } : {}),
    ...overlapping(agreement.validFrom, agreement.validUntil) };
  const other = await em.findOne(RoamingAgreement, { connection: agreement.connection, ...others });
  if (other) {
    throw new DomainError('overlapping_roaming_agreement', `the validity overlaps roaming agreement ${other.id} of the same connection and role`,
      { path: ['valid_from'] });
  }
  // A CPO session cannot name its connection: a second `cpo` agreement would drop every session of the partner's drivers out.
  const elsewhere = agreement.role === 'cpo' ? await em.findOne(RoamingAgreement, { partner: agreement.partner, ...others }) : null;
  if (elsewhere) {
    throw new DomainError('overlapping_roaming_agreement', `the validity overlaps cpo roaming agreement ${elsewhere.id} with the same partner on `
      + `connection ${elsewhere.connection.id}: a CPO session cannot name its connection`, { path: ['valid_from'] });
  }
}

export async function createRoamingAgreement(em: Em, input: AgreementInput): Promise<RoamingAgreementData> {
  assertMayChangeInstanceWide(callerScope(em), 'roaming agreements');
  const { connectionId, partnerId, ...fields } = input;
  return em.transactional(async (tx) => {
    const connection = await connectionOf(tx, connectionId);
    if (partnerId !== undefined && partnerId !== null && partnerId.toLowerCase() !== connection.partner?.id.toLowerCase()) {
      const exists = isUuid(partnerId) && await tx.count(RoamingPartner, { id: partnerId }) > 0;
      if (!exists) throw new NotFoundError('roaming partner', { path: ['partner_id'] });
      throw new InvalidInputError('the partner of an agreement is the partner of its connection', { path: ['partner_id'] });
    }
    if (!fields.role) throw new InvalidInputError('role is required', { path: ['role'] });
    if (!fields.validFrom) throw new InvalidInputError('valid_from is required', { path: ['valid_from'] });
    await assertExternalReferenceFree(tx, RoamingAgreement, fields.externalReference, 'roaming agreement');
    const agreement = tx.create(RoamingAgreement, {
      connection, partner: connection.partner!, role: fields.role, validFrom: fields.validFrom,
    });
    applyPatch(agreement, { ...fields, vatKind: fields.vatKind ?? undefined, defunct: fields.defunct ?? undefined });
    await check(tx, agreement);
    await flushUnique(tx, UNIQUE);
    return roamingAgreementData(tx, agreement);
  });
}

export async function updateRoamingAgreement(em: Em, id: string, patch: Patch<AgreementFields>): Promise<RoamingAgreementData> {
  assertMayChangeInstanceWide(callerScope(em), 'roaming agreements');
  return em.transactional(async (tx) => {
    const agreement = await agreementToChange(tx, id);
    for (const member of ['role', 'validFrom', 'vatKind', 'defunct'] as const) {
      if (patch[member] === null) {
        const name = { role: 'role', validFrom: 'valid_from', vatKind: 'vat_kind', defunct: 'defunct' }[member];
        throw new InvalidInputError(`${name} cannot be removed`, { path: [name] });
      }
    }
    if (agreement.defunct) throw new DomainError('roaming_agreement_defunct', 'a defunct roaming agreement cannot change');
    if (setsOtherExternalReference(patch.externalReference, agreement.externalReference)) {
      await assertExternalReferenceFree(tx, RoamingAgreement, patch.externalReference, 'roaming agreement');
    }
    applyPatch(agreement, patch);
    await check(tx, agreement);
    await flushUnique(tx, UNIQUE);
    return roamingAgreementData(tx, agreement);
  });
}
