// The OCPI side of a roaming connection: registering it in either direction, the same service as
// REST POST /roaming-connection/{id}/ocpi/register. The peer's tokens are never answered; a token A
// issued for the peer is answered once, in the mutation's result.
import * as yup from 'yup';
import { PEER_STATUSES } from '../../src/ocpi/ocpi-peer.entity.ts';
import type { OcpiPeerData } from '../../src/ocpi/ocpi-peer.queries.ts';
import { ourUrls } from '../../src/ocpi/ocpi-settings.ts';
import { issueTokenA, registerWithPeer } from '../../src/ocpi/register-peer.service.ts';
import { NotFoundError } from '../../src/platform/errors.ts';
import { isUuid } from '../../src/platform/ids.ts';
import { text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { builder } from '../builder.ts';
import { idArg } from '../ids.ts';
import { FIELD_ARGUMENTS, mutate } from '../mutation.ts';
import { DateTime } from './date-time.ts';

interface Registration { peer: OcpiPeerData; origin: string; tokenA?: string }

const OcpiParty = builder.objectRef<OcpiPeerData['roles'][number]>('OcpiParty').implement({
  fields: (t) => ({
    role: t.exposeString('role'),
    countryCode: t.exposeString('country_code'),
    partyId: t.exposeString('party_id'),
    name: t.string({ resolve: (r) => r.business_details.name }),
  }),
});

const OcpiEndpoint = builder.objectRef<OcpiPeerData['endpoints'][number]>('OcpiEndpoint').implement({
  fields: (t) => ({ identifier: t.exposeString('identifier'), role: t.exposeString('role'), url: t.exposeString('url') }),
});

const OcpiRegistration = builder.objectRef<Registration>('OcpiRegistration').implement({
  description: `Where the OCPI handshake of a roaming connection stands (REST: the OcpiPeer of /roaming-connection/{id}/ocpi). Status: ${PEER_STATUSES.join(', ')}.`,
  fields: (t) => ({
    roamingConnectionId: t.string({ resolve: (r) => r.peer.roamingConnectionId }),
    status: t.string({ resolve: (r) => r.peer.status }),
    version: t.string({ nullable: true, resolve: (r) => r.peer.version ?? null }),
    versionsUrl: t.string({ nullable: true, resolve: (r) => r.peer.versionsUrl ?? null }),
    ourVersionsUrl: t.string({ resolve: (r) => ourUrls(r.origin).versions }),
    tokenA: t.string({ nullable: true, description: 'The token A the peer registers with: only in the answer that issued it.', resolve: (r) => r.tokenA ?? null }),
    parties: t.field({ type: [OcpiParty], extensions: { listEstimate: 5 }, resolve: (r) => r.peer.roles }),
    endpoints: t.field({ type: [OcpiEndpoint], extensions: { listEstimate: 20 }, resolve: (r) => r.peer.endpoints }),
    updatedAt: t.field({ type: DateTime, resolve: (r) => r.peer.updatedAt }),
  }),
});

const rules = yup.object({ versionsUrl: text().url('${path} must be a URL').nullable(), token: text(64).min(1).nullable() });

const connectionId = (raw: string | number) => {
  const id = idArg(raw, 'RoamingConnection');
  if (!isUuid(id)) throw new NotFoundError('roaming connection');
  return id;
};

builder.mutationFields((t) => ({
  registerOcpiConnection: t.field({
    type: OcpiRegistration, nullable: true,
    description: 'Registers the OCPI connection of a roaming connection (REST: POST /roaming-connection/{id}/ocpi/register). With versionsUrl and token '
      + '(the peer\'s token A): registers with the peer. Without them: issues a token A (answered once) for the peer to register with us. '
      + 'Needs a credential without an administration limit.',
    args: {
      id: t.arg.id({ required: true, description: 'Global ID or REST id of the roaming connection.' }),
      versionsUrl: t.arg.string(), token: t.arg.string(),
    },
    resolve: (_root, args, context) => {
      validate(rules, { versionsUrl: args.versionsUrl, token: args.token });
      const origin = context.origin ?? 'http://localhost';
      return mutate(context, FIELD_ARGUMENTS, async (em) => {
        const id = connectionId(args.id);
        if (args.versionsUrl && args.token) {
          return { peer: await registerWithPeer(em, { roamingConnectionId: id, versionsUrl: args.versionsUrl, tokenA: args.token, origin }), origin };
        }
        const { peer, tokenA } = await issueTokenA(em, id);
        return { peer, origin, tokenA };
      });
    },
  }),
}));
