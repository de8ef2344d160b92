import * as yup from 'yup';
import { tryParseEvcoId, validateNewEvcoId } from '../../src/msp/evco-id.ts';
import { setTokenChargeAuthBlocked, updateToken, type TokenPatch } from '../../src/msp/save-token.service.ts';
import { findToken, tokenList, tokensByIds, type TokenData } from '../../src/msp/token.queries.ts';
import { DomainError } from '../../src/platform/errors.ts';
import { text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { builder } from '../builder.ts';
import { listConnection } from '../connection.ts';
import { inArguments } from '../errors.ts';
import { mutate } from '../mutation.ts';
import { Administration } from './administration.ts';
import { DateTime } from './date-time.ts';
import { FormFactor } from './form-factor.ts';
import { TokenFulfilment } from './token-fulfilment.ts';
import { TokenSeries } from './token-series.ts';
import { UidType } from './uid-type.ts';

export const Token = builder.loadableNode('Token', {
  description: 'A charge token (card, keychain, app, vehicle). The REST API names it by its evcoId.',
  id: { resolve: (token: TokenData) => token.id },
  cacheResolved: (token) => token.id,
  isTypeOf: (value) => isDataOf(value, 'Token'),
  load: (ids: string[], context) => tokensByIds(context.em, ids) as Promise<TokenData[]>,
  fields: (t) => ({
    evcoId: t.exposeString('evcoId', { description: 'The eMA ID as stored: no separators.' }),
    evcoIdFormatted: t.string({
      description: 'The eMA ID for display: CC-PPP-IIIIIIIII-D.',
      resolve: (token) => tryParseEvcoId(token.evcoId)?.formatted ?? token.evcoId,
    }),
    uid: t.string({ nullable: true, resolve: (token) => token.uid ?? null }),
    uidType: t.field({ type: UidType, nullable: true, resolve: (token) => token.uidType ?? null }),
    formFactor: t.field({ type: FormFactor, resolve: (token) => token.formFactor }),
    brandCode: t.string({ nullable: true, resolve: (token) => token.brandCode ?? null }),
    series: t.field({
      type: TokenSeries,
      nullable: true,
      description: 'The series the token was issued from; null when none or the caller may not see it.',
      resolve: (token) => token.series?.id ?? null,
    }),
    chargeAuthRequestsBlocked: t.exposeBoolean('chargeAuthBlocked'),
    fulfilment: t.field({ type: TokenFulfilment, resolve: (token) => token.fulfilment }),
    activatedAt: t.field({ type: DateTime, nullable: true, resolve: (token) => token.activatedAt ?? null }),
    vehicleVin: t.string({ nullable: true, resolve: (token) => token.vehicleVin ?? null }),
    used: t.boolean({ description: 'Whether the token was ever linked to a subscription.', resolve: (token) => token.firstLinkedAt != null }),
    currentAdminId: t.string({ description: 'The slug of the administration holding the token now.', resolve: (token) => token.currentAdmin.id }),
    currentAdministration: t.field({ type: Administration, resolve: (token) => token.currentAdmin.id }),
    initialAdminId: t.string({ description: 'The slug of the administration that issued the token.', resolve: (token) => token.initialAdmin.id }),
    initialAdministration: t.field({
      type: Administration,
      nullable: true,
      description: 'Null when the caller may not see that administration.',
      resolve: (token) => token.initialAdmin.id,
    }),
    isCurrentlyValid: t.boolean({
      description: 'Whether the token may start a charge session now (REST: is_currently_valid).',
      resolve: (token) => token.isCurrentlyValid,
    }),
    externalUpdatedAt: t.field({ type: DateTime, nullable: true, resolve: (token) => token.externalUpdatedAt ?? null }),
    createdAt: t.field({ type: DateTime, resolve: (token) => token.createdAt }),
    updatedAt: t.field({ type: DateTime, resolve: (token) => token.updatedAt }),
  }),
});

export const TokenConnection = builder.connectionObject({ type: Token, name: 'TokenConnection' }, { name: 'TokenEdge' });

/** Tokens are listed by evco_id like GET /msp-token; a cursor is the evcoId of an edge. */
const EVCO_ID_DESCRIPTION = 'The eMA ID in any casing, with or without separators and check digit.';

builder.queryFields((t) => ({
  tokens: t.connection({
    type: Token,
    description: 'The tokens the caller may see, by evcoId.',
    args: { used: t.arg.boolean({ description: 'Only tokens that were (true) or were never (false) linked to a subscription.' }) },
    resolve: (_root, args, context) => {
      return listConnection<TokenData>(tokenList(context.em, { used: args.used ?? undefined }), args);
    },
  }, TokenConnection),
  token: t.field({
    type: Token,
    nullable: true,
    description: 'A token; null when there is none the caller may see.',
    args: { evcoId: t.arg.string({ required: true, description: EVCO_ID_DESCRIPTION }) },
    resolve: (_root, args, context) => findToken(context.em, args.evcoId),
  }),
}));

interface EvcoIdParts {
  normalized: string;
  formatted: string;
  countryCode: string;
  providerId: string;
  instance: string;
  checkDigit: string;
  checkDigitPresent: boolean;
}

const EvcoIdValidation = builder.objectRef<EvcoIdParts>('EvcoIdValidation').implement({
  description: 'An eMA ID checked and taken apart (REST: POST /msp-token-evco-id/validate).',
  fields: (t) => ({
    normalized: t.exposeString('normalized', { description: 'Upper case, no separators; with the check character when it was given.' }),
    formatted: t.exposeString('formatted', { description: 'CC-PPP-IIIIIIIII, with -D when the check character was given.' }),
    countryCode: t.exposeString('countryCode'),
    providerId: t.exposeString('providerId'),
    instance: t.exposeString('instance'),
    checkDigit: t.exposeString('checkDigit', { description: 'The check character: as given, else calculated.' }),
    checkDigitPresent: t.exposeBoolean('checkDigitPresent'),
  }),
});

const TokenInput = builder.inputType('TokenInput', {
  description: 'JSON Merge Patch semantics: an absent field keeps its value, null clears it.',
  fields: (t) => ({
    brandCode: t.string({ description: 'The code of an existing token brand.' }),
    uid: t.string({ description: 'Must fit uidType\'s pattern; RFID UIDs are stored upper case.' }),
    uidType: t.field({ type: UidType }),
    vehicleVin: t.string({ description: '17 letters and digits (ISO 3779).' }),
    externalUpdatedAt: t.field({ type: DateTime, description: 'An update older than the stored one is ignored.' }),
  }),
});

/** What GraphQL types cannot say; the same rules as the REST body. */
const tokenRules = yup.object({ brandCode: text(64).nullable(), uid: text(64).nullable(), vehicleVin: text(17).nullable() });

function tokenPatch(input: typeof TokenInput.$inferInput): TokenPatch {
  validate(tokenRules, input);
  return input as TokenPatch;
}

builder.queryFields((t) => ({
  validateEvcoId: t.field({
    type: EvcoIdValidation,
    description: 'Checks an eMA ID (format, check character, country) and answers its forms (REST: POST /msp-token-evco-id/validate); '
      + 'an invalid one is an invalid_input error at evcoId.',
    args: { evcoId: t.arg.string({ required: true }) },
    resolve: (_root, args) => {
      try {
        return validateNewEvcoId(args.evcoId);
      } catch (error) {
        throw error instanceof DomainError ? inArguments(error) : error;
      }
    },
  }),
}));

builder.mutationFields((t) => ({
  updateToken: t.field({
    type: Token,
    nullable: true,
    description: 'Merge-updates a token (REST: POST /msp-token/{evco_id}). Tokens are issued by the series and subscription '
      + 'operations: an unknown evcoId is not_found.',
    args: { evcoId: t.arg.string({ required: true, description: EVCO_ID_DESCRIPTION }), input: t.arg({ type: TokenInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => updateToken(em, args.evcoId, tokenPatch(args.input))),
  }),
  blockTokenChargeAuthRequests: t.field({
    type: Token,
    nullable: true,
    description: 'REST: POST /msp-token/{evco_id}/block-charge-auth-requests.',
    args: { evcoId: t.arg.string({ required: true, description: EVCO_ID_DESCRIPTION }) },
    resolve: (_root, args, context) => mutate(context, null, (em) => setTokenChargeAuthBlocked(em, args.evcoId, true)),
  }),
  unblockTokenChargeAuthRequests: t.field({
    type: Token,
    nullable: true,
    description: 'REST: POST /msp-token/{evco_id}/unblock-charge-auth-requests.',
    args: { evcoId: t.arg.string({ required: true, description: EVCO_ID_DESCRIPTION }) },
    resolve: (_root, args, context) => mutate(context, null, (em) => setTokenChargeAuthBlocked(em, args.evcoId, false)),
  }),
}));
