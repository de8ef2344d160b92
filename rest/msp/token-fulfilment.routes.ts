import * as yup from 'yup';
import { FORM_FACTOR_IDS, UID_TYPE_IDS } from '../../src/msp/token-reference-data.ts';
import {
  activateToken, addPlugAndChargeVehicle, addVirtualToken, requestTokenFulfilment, type IssuedToken,
} from '../../src/msp/token-fulfilment.service.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { isoDate, oneOf, text, timestamp } from '../../src/platform/input-schemas.ts';
import { representation, type Infer } from '../rails/shape.ts';
import { serializeTokenLink, tokenLinkShape } from './token-link.routes.ts';
import { serializeToken, tokenShape } from './token.routes.ts';

const TAG = 'MSP tokens';

const issuedShape = representation('IssuedToken', { token: tokenShape, token_link: tokenLinkShape });

function presentIssued(issued: IssuedToken): Infer<typeof issuedShape> {
  return { token: serializeToken(issued.token), token_link: serializeTokenLink(issued.link) };
}

const validFrom = timestamp().nullable();

export const tokenFulfilmentRoutes: RouteDef[] = [
  defineRoute({
    method: 'post', path: '/msp-token-subscription/add-virtual-token', tag: TAG, graphql: 'addVirtualToken',
    summary: 'Issue a virtual (app) token and link it to a subscription', response: issuedShape,
    description: 'The token gets form factor virtual and uid type app_user; its EVCO id is evco_id or the next of token_series_id (exactly one).',
    body: yup.object({
      subscription_id: text(64).defined('${path} is required'),
      token_series_id: text(64).nullable(),
      evco_id: text(64).nullable(),
      uid: text(64).nullable(),
      valid_from: validFrom,
    }),
    handler: async ({ em, body }) => presentIssued(await addVirtualToken(em, {
      subscriptionId: body.subscription_id, tokenSeriesId: body.token_series_id, evcoId: body.evco_id, uid: body.uid,
      validFrom: isoDate(body.valid_from),
    })),
  }),
  defineRoute({
    method: 'post', path: '/msp-token-subscription/:id/token-fulfilment', tag: TAG, graphql: 'requestTokenFulfilment',
    summary: 'Request a physical token (RFID card or keychain) for a subscription', response: issuedShape,
    description: 'Issues a token from the series (fulfilment requested) and links it; only the form factors card and keychain can be fulfilled.',
    body: yup.object({
      form_factor: oneOf(FORM_FACTOR_IDS).defined('${path} is required'),
      token_series_id: text(64).defined('${path} is required'),
      token_uid_type_id: oneOf(UID_TYPE_IDS).nullable(),
      valid_from: validFrom,
    }),
    handler: async ({ em, params, body }) => presentIssued(await requestTokenFulfilment(em, params.id, {
      formFactor: body.form_factor, tokenSeriesId: body.token_series_id, uidType: body.token_uid_type_id,
      validFrom: isoDate(body.valid_from),
    })),
  }),
  defineRoute({
    method: 'post', path: '/msp-token-subscription/:id/plug-and-charge-vehicle', tag: TAG, graphql: 'addPlugAndChargeVehicle',
    summary: 'Issue a Plug & Charge contract token for a vehicle and link it to a subscription', response: issuedShape,
    description: 'The token gets form factor plug_and_charge and uid type emaid (its uid is the EVCO id); its EVCO id is evco_id or the next of token_series_id (exactly one).',
    body: yup.object({
      vehicle_vin: text(17).defined('${path} is required'),
      evco_id: text(64).nullable(),
      token_series_id: text(64).nullable(),
      valid_from: validFrom,
    }),
    handler: async ({ em, params, body }) => presentIssued(await addPlugAndChargeVehicle(em, params.id, {
      vehicleVin: body.vehicle_vin, evcoId: body.evco_id, tokenSeriesId: body.token_series_id, validFrom: isoDate(body.valid_from),
    })),
  }),
  defineRoute({
    method: 'post', path: '/msp-token-fulfilment/activate-token', tag: TAG, graphql: 'activateToken',
    summary: 'Mark a fulfilled token as activated, optionally recording its UID', response: tokenShape,
    body: yup.object({
      evco_id: text(64).defined('${path} is required'),
      uid: text(64).nullable(),
    }),
    handler: async ({ em, body }) => serializeToken(await activateToken(em, { evcoId: body.evco_id, uid: body.uid })),
  }),
];
