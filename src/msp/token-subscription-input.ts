// Input of the token subscription use cases, shared by REST and GraphQL.
import { DomainError, type ErrorDetail } from '../platform/errors.ts';
import type { Patch } from '../platform/merge-patch.ts';
import { boundsOrderFailure } from '../platform/validity.ts';
import type { UidType } from './token-reference-data.ts';

export interface TokenSubscriptionFields {
  buyerReference: string;
  validFrom: Date;
  validUntil: Date;
  customFields: Record<string, string | number | boolean | null>;
  externalReference: string;
  externalUpdatedAt: Date;
}

export type TokenSubscriptionPatch = Patch<TokenSubscriptionFields>;

export interface NewLink {
  evcoId: string;
  validFrom?: Date | null;
  validUntil?: Date | null;
}

/** The members naming the subscription's administration, customer and plan: set on create only. */
export interface SubscriptionParties {
  adminId?: string | null;
  customerId?: string | null;
  customerExternalReference?: string | null;
  planId?: string | null;
  planExternalReference?: string | null;
}

export interface NewTokenSubscription extends TokenSubscriptionPatch, SubscriptionParties {
  /** A new token from this series is issued and linked (deferring to the subscription's valid_from). */
  tokenSeriesId?: string | null;
  tokenUidTypeId?: UidType | null;
  tokenUid?: string | null;
  /** Existing tokens to link. */
  links?: NewLink[] | null;
}

export const TOKEN_SUBSCRIPTION = 'token subscription';
export const TOKEN_SUBSCRIPTION_UNIQUE = { msp_token_subscription_external_reference_unique: ['external_reference'] };

export function throwFailures(failures: ErrorDetail[]): void {
  if (failures.length) throw DomainError.of('invalid_input', failures);
}

/** valid_from is required and valid_until, when given, comes after it. */
export function checkValidity(validFrom: Date | null | undefined, validUntil: Date | null | undefined, failures: ErrorDetail[]): void {
  const unordered = boundsOrderFailure(validFrom, validUntil);
  if (!validFrom) failures.push({ path: ['valid_from'], message: 'valid_from is required' });
  else if (unordered) failures.push(unordered);
}

