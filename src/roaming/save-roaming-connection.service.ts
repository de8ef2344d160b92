// Roaming connections: create and merge-update. A locally owned connection names its partner; a
// provider-facilitated one never has an agreement, so it cannot become one while it has agreements.
// Connections serve every administration: only a credential without a limit changes them.
import { callerScope } from '../access/admin-scope.ts';
import { assertMayChangeInstanceWide } from '../access/instance-wide.ts';
import { RoamingPartner } from '../parties/roaming-partner.entity.ts';
import { InvalidInputError, NotFoundError } from '../platform/errors.ts';
import { assertExternalReferenceFree, setsOtherExternalReference } from '../platform/external-reference.ts';
import { flushUnique } from '../platform/flush-unique.ts';
import { isUuid } from '../platform/ids.ts';
import { applyPatch, type Patch } from '../platform/merge-patch.ts';
import type { Em } from '../platform/orm.ts';
import { RoamingAgreement } from './roaming-agreement.entity.ts';
import { RoamingConnection, type ConnectionKind } from './roaming-connection.entity.ts';
import { roamingConnectionData, type RoamingConnectionData } from './roaming.queries.ts';

export interface ConnectionFields {
  name: string;
  kind: ConnectionKind;
  protocol: 'ocpi';
  url: string;
  notes: string;
  externalReference: string;
}

const UNIQUE = { roaming_connection_external_reference_unique: ['external_reference'] };

/** The connection to change; else 400 not_found. */
async function connectionToChange(em: Em, id: string): Promise<RoamingConnection> {
  const connection = isUuid(id) ? await em.findOne(RoamingConnection, { id }) : null;
  if (!connection) throw new NotFoundError('roaming connection');
  return connection;
}

async function partnerOf(em: Em, partnerId: string | null | undefined): Promise<RoamingPartner | null | undefined> {
  if (partnerId === undefined || partnerId === null) return partnerId;
  const partner = isUuid(partnerId) ? await em.findOne(RoamingPartner, { id: partnerId }) : null;
  if (!partner) throw new NotFoundError('roaming partner', { path: ['partner_id'] });
  return partner;
}

async function check(em: Em, connection: RoamingConnection): Promise<void> {
  if (connection.kind === 'locally_owned' && !connection.partner) {
    throw new InvalidInputError('a locally owned connection names its roaming partner', { path: ['partner_id'] });
  }
  if (connection.kind === 'provider_facilitated' && connection.id && await em.count(RoamingAgreement, { connection: connection.id }) > 0) {
    throw new InvalidInputError('a provider-facilitated connection never has an agreement, and this one has agreements', { path: ['kind'] });
  }
}

export async function createRoamingConnection(em: Em, input: Patch<ConnectionFields> & { partnerId?: string | null }): Promise<RoamingConnectionData> {
  assertMayChangeInstanceWide(callerScope(em), 'roaming connections');
  const { partnerId, ...fields } = input;
  return em.transactional(async (tx) => {
    if (!fields.name) throw new InvalidInputError('name is required', { path: ['name'] });
    if (!fields.kind) throw new InvalidInputError('kind is required', { path: ['kind'] });
    const partner = await partnerOf(tx, partnerId);
    await assertExternalReferenceFree(tx, RoamingConnection, fields.externalReference, 'roaming connection');
    const connection = tx.create(RoamingConnection, { name: fields.name, kind: fields.kind, partner: partner ?? null });
    applyPatch(connection, { ...fields, protocol: fields.protocol ?? undefined });
    await check(tx, connection);
    await flushUnique(tx, UNIQUE);
    return roamingConnectionData(tx, connection);
  });
}

export async function updateRoamingConnection(em: Em, id: string, patch: Patch<ConnectionFields> & { partnerId?: string | null }): Promise<RoamingConnectionData> {
  assertMayChangeInstanceWide(callerScope(em), 'roaming connections');
  const { partnerId, ...fields } = patch;
  return em.transactional(async (tx) => {
    const connection = await connectionToChange(tx, id);
    for (const member of ['name', 'kind', 'protocol'] as const) {
      if (fields[member] === null) throw new InvalidInputError(`${member} cannot be removed`, { path: [member] });
    }
    if (setsOtherExternalReference(fields.externalReference, connection.externalReference)) {
      await assertExternalReferenceFree(tx, RoamingConnection, fields.externalReference, 'roaming connection');
    }
    const partner = await partnerOf(tx, partnerId);
    if (partner !== undefined) {
      if (connection.partner && partner?.id !== connection.partner.id && await tx.count(RoamingAgreement, { connection }) > 0) {
        throw new InvalidInputError('the partner of a connection with agreements cannot change', { path: ['partner_id'] });
      }
      connection.partner = partner;
    }
    applyPatch(connection, fields);
    await check(tx, connection);
    await flushUnique(tx, UNIQUE);
    return roamingConnectionData(tx, connection);
  });
}
