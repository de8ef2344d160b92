// The token-issuing subscription operations (a virtual token, a physical token to fulfil, a Plug &
// Charge vehicle) and the activation of a fulfilled token: src/msp/token-fulfilment.service.ts.
import * as yup from 'yup';
import {
  activateToken, addPlugAndChargeVehicle, addVirtualToken, requestTokenFulfilment, type IssuedToken,
} from '../../src/msp/token-fulfilment.service.ts';
import { text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { builder } from '../builder.ts';
import { idArg } from '../ids.ts';
import { FIELD_ARGUMENTS, mutate } from '../mutation.ts';
import { DateTime } from './date-time.ts';
import { FormFactor } from './form-factor.ts';
import { Token } from './token.ts';
import { TokenLink } from './token-link.ts';
import { UidType } from './uid-type.ts';

const IssuedTokenType = builder.objectRef<IssuedToken>('IssuedToken').implement({
  description: 'A token just issued and its link to the subscription.',
  fields: (t) => ({
    token: t.field({ type: Token, resolve: (issued) => issued.token }),
    tokenLink: t.field({ type: TokenLink, resolve: (issued) => issued.link }),
  }),
});

const VALID_FROM = 'When the link starts; null: with the subscription.';
const SUBSCRIPTION_ID = 'Global ID or REST id of a subscription that is not defunct.';
const SERIES_ID = 'Global ID or REST id of a token series of the subscription\'s administration.';

const AddVirtualTokenInput = builder.inputType('AddVirtualTokenInput', {
  description: 'The EVCO id is evcoId or the next of tokenSeriesId (exactly one).',
  fields: (t) => ({
    subscriptionId: t.id({ required: true, description: SUBSCRIPTION_ID }),
    tokenSeriesId: t.id({ description: SERIES_ID }),
    evcoId: t.string({ description: 'A new eMA ID.' }),
    uid: t.string({ description: 'The app user id.' }),
    validFrom: t.field({ type: DateTime, description: VALID_FROM }),
  }),
});

const TokenFulfilmentInput = builder.inputType('TokenFulfilmentInput', {
  fields: (t) => ({
    formFactor: t.field({ type: FormFactor, required: true, description: 'CARD or KEYCHAIN: only those can be fulfilled.' }),
    tokenSeriesId: t.id({ required: true, description: SERIES_ID }),
    tokenUidType: t.field({ type: UidType, description: 'Defaults to the series\'.' }),
    validFrom: t.field({ type: DateTime, description: VALID_FROM }),
  }),
});

const PlugAndChargeVehicleInput = builder.inputType('PlugAndChargeVehicleInput', {
  description: 'The EVCO id is evcoId or the next of tokenSeriesId (exactly one).',
  fields: (t) => ({
    vehicleVin: t.string({ required: true, description: '17 letters and digits (ISO 3779).' }),
    evcoId: t.string({ description: 'A new eMA ID.' }),
    tokenSeriesId: t.id({ description: SERIES_ID }),
    validFrom: t.field({ type: DateTime, description: VALID_FROM }),
  }),
});

/** What GraphQL types cannot say; the same rules as the REST bodies. */
const virtualRules = yup.object({ subscriptionId: text(64), tokenSeriesId: text(64).nullable(), evcoId: text(64).nullable(), uid: text(64).nullable() });
const fulfilmentRules = yup.object({ tokenSeriesId: text(64) });
const vehicleRules = yup.object({ vehicleVin: text(17), evcoId: text(64).nullable(), tokenSeriesId: text(64).nullable() });
const activateRules = yup.object({ evcoId: text(64), uid: text(64).nullable() });

const seriesId = (raw: string | number | null | undefined) => (raw == null ? raw : idArg(raw, 'TokenSeries'));
const subscriptionId = (raw: string | number) => idArg(raw, 'TokenSubscription');

builder.mutationFields((t) => ({
  addVirtualToken: t.field({
    type: IssuedTokenType,
    nullable: true,
    description: 'Issues a virtual (app) token, form factor VIRTUAL and uid type APP_USER, and links it to the subscription '
      + '(REST: POST /msp-token-subscription/add-virtual-token).',
    args: { input: t.arg({ type: AddVirtualTokenInput, required: true }) },
    resolve: (_root, { input }, context) => mutate(context, 'input', (em) => {
      validate(virtualRules, input);
      return addVirtualToken(em, { ...input, subscriptionId: subscriptionId(input.subscriptionId), tokenSeriesId: seriesId(input.tokenSeriesId) });
    }),
  }),
  requestTokenFulfilment: t.field({
    type: IssuedTokenType,
    nullable: true,
    description: 'Issues a physical token (RFID card or keychain) from the series with fulfilment requested, and links it '
      + '(REST: POST /msp-token-subscription/{id}/token-fulfilment).',
    args: { subscriptionId: t.arg.id({ required: true, description: SUBSCRIPTION_ID }), input: t.arg({ type: TokenFulfilmentInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => {
      validate(fulfilmentRules, args.input);
      const { formFactor, tokenSeriesId, tokenUidType, validFrom } = args.input;
      return requestTokenFulfilment(em, subscriptionId(args.subscriptionId), {
        formFactor, tokenSeriesId: idArg(tokenSeriesId, 'TokenSeries'), uidType: tokenUidType, validFrom,
      });
    }),
  }),
  addPlugAndChargeVehicle: t.field({
    type: IssuedTokenType,
    nullable: true,
    description: 'Issues a Plug & Charge contract token for a vehicle (uid type EMAID, its uid the EVCO id) and links it '
      + '(REST: POST /msp-token-subscription/{id}/plug-and-charge-vehicle).',
    args: { subscriptionId: t.arg.id({ required: true, description: SUBSCRIPTION_ID }), input: t.arg({ type: PlugAndChargeVehicleInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => {
      validate(vehicleRules, args.input);
      return addPlugAndChargeVehicle(em, subscriptionId(args.subscriptionId), { ...args.input, tokenSeriesId: seriesId(args.input.tokenSeriesId) });
    }),
  }),
  activateToken: t.field({
    type: Token,
    nullable: true,
    description: 'Marks a fulfilled token as activated, optionally recording its UID (REST: POST /msp-token-fulfilment/activate-token).',
    args: {
      evcoId: t.arg.string({ required: true, description: 'The eMA ID in any casing, with or without separators and check digit.' }),
      uid: t.arg.string({ description: 'Must fit the token\'s uid type.' }),
    },
    resolve: (_root, args, context) => mutate(context, FIELD_ARGUMENTS, (em) => {
      validate(activateRules, args);
      return activateToken(em, args);
    }),
  }),
}));
