// Every entity schema the ORM knows. Add new ones here.
import { MonetaryCreditSchema } from './msp/monetary-credit.entity.ts';
import { SubscriptionCorrectionSchema } from './msp/subscription-correction.entity.ts';
import { SubscriptionPlanSchema } from './msp/subscription-plan.entity.ts';
import { TokenBrandSchema } from './msp/token-brand.entity.ts';
import { TokenLinkSchema } from './msp/token-link.entity.ts';
import { TokenSeriesSchema } from './msp/token-series.entity.ts';
import { TokenSubscriptionSchema } from './msp/token-subscription.entity.ts';
import { TokenSchema } from './msp/token.entity.ts';
import { CredentialSchema } from './access/credential.entity.ts';
import { CustomerAuthorizationSchema } from './end-users/customer-authorization.entity.ts';
import { EndUserSchema } from './end-users/end-user.entity.ts';
import { EndUserSiteSchema } from './end-users/end-user-site.entity.ts';
import { SubscriptionAuthorizationSchema } from './end-users/subscription-authorization.entity.ts';
import { AdministrationSchema } from './parties/administration.entity.ts';
import { BillingAddressSchema } from './parties/billing-address.entity.ts';
import { CustomerSchema } from './parties/customer.entity.ts';
import { DirectDebitMandateSchema } from './parties/direct-debit-mandate.entity.ts';
import { InstanceSettingsSchema } from './parties/instance-settings.entity.ts';
import { RoamingPartnerSchema } from './parties/roaming-partner.entity.ts';
import { SellerSchema } from './parties/seller.entity.ts';
import { RatePlanVersionSchema } from './pricing/rate-plan-version.entity.ts';
import { RatePlanSchema } from './pricing/rate-plan.entity.ts';
import { VatRateSchema } from './pricing/vat-rate.entity.ts';
import { ChargeSessionSchema } from './sessions/charge-session.entity.ts';
import { EvseSchema } from './cpo/evse.entity.ts';
import { ReimbursementArrangementSchema } from './cpo/reimbursement-arrangement.entity.ts';
import { ReimbursementLinkSchema } from './cpo/reimbursement-link.entity.ts';
import { DropoutCaseSchema } from './sessions/dropout-case.entity.ts';
import { PricingResultSchema } from './sessions/pricing-result.entity.ts';
import { BillingSettingsSchema } from './billing/billing-settings.entity.ts';
import { BillingLogoSchema } from './billing/billing-logo.entity.ts';
import { BillingSeriesSchema } from './billing/billing-series.entity.ts';
import { ProductCategorySchema } from './billing/product-category.entity.ts';
import { ReviewSetSchema } from './billing/review-set.entity.ts';
import { ReviewSetOperationSchema } from './billing/review-set-operation.entity.ts';
import { BillingBackfillSchema } from './billing/billing-backfill.entity.ts';
import { BillingBoxSchema } from './billing/billing-box.entity.ts';
import { BillingRollupSchema } from './billing/billing-rollup.entity.ts';
import { BillingItemSchema } from './billing/billing-item.entity.ts';
import { DocumentFileSchema } from './billing/document-file.entity.ts';
import { BoxDeliverySchema } from './billing/box-delivery.entity.ts';
import { NumberCounterSchema } from './billing/number-counter.entity.ts';
import { ExchangeRateSchema } from './billing/exchange-rate.entity.ts';
import { CpoSubscriptionPlanSchema } from './cpo/cpo-subscription-plan.entity.ts';
import { CpoSubscriptionPlanVersionSchema } from './cpo/cpo-subscription-plan-version.entity.ts';
import { CpoSubscriptionSchema } from './cpo/cpo-subscription.entity.ts';
import { CpoSubscriptionEvseLinkSchema } from './cpo/cpo-subscription-evse-link.entity.ts';
import { EvseLocationSchema } from './cpo/evse-location.entity.ts';
import { ReimbursementPlanSchema } from './cpo/reimbursement-plan.entity.ts';
import { CalculationInputSchema } from './cpo/calculation-input.entity.ts';
import { EvseIdAssignmentSchema } from './cpo/evse-id-assignment.entity.ts';
import { SessionReimbursementSchema } from './cpo/session-reimbursement.entity.ts';
import { EventSchema } from './events/event.entity.ts';
import { EventCommitSchema } from './events/event-commit.entity.ts';
import { WebhookSubscriptionSchema } from './webhooks/webhook-subscription.entity.ts';
import { WebhookAttemptSchema } from './webhooks/webhook-attempt.entity.ts';
import { RoamingConnectionSchema } from './roaming/roaming-connection.entity.ts';
import { RoamingAgreementSchema } from './roaming/roaming-agreement.entity.ts';
import { OcpiPeerSchema } from './ocpi/ocpi-peer.entity.ts';
import { OcpiInvalidCdrSchema } from './ocpi/ocpi-invalid-cdr.entity.ts';
import { OcpiSessionSchema } from './ocpi/ocpi-session.entity.ts';
import { OcpiTariffSchema } from './ocpi/ocpi-tariff.entity.ts';
import { RoamingCommandSchema } from './ocpi/roaming-command.entity.ts';
import { OcpiRetiredTokenSchema } from './ocpi/ocpi-retired-token.entity.ts';

export const entities = [
  InstanceSettingsSchema,
  SellerSchema,
  AdministrationSchema,
  CustomerSchema,
  BillingAddressSchema,
  DirectDebitMandateSchema,
  RoamingPartnerSchema,
  RoamingConnectionSchema,
  RoamingAgreementSchema,
  CredentialSchema,
  EndUserSchema,
  CustomerAuthorizationSchema,
  EndUserSiteSchema,
  SubscriptionAuthorizationSchema,
  TokenBrandSchema,
  TokenSeriesSchema,
  TokenSchema,
  SubscriptionPlanSchema,
  TokenSubscriptionSchema,
  TokenLinkSchema,
  MonetaryCreditSchema,
  SubscriptionCorrectionSchema,
  VatRateSchema,
  RatePlanSchema,
  RatePlanVersionSchema,
  DropoutCaseSchema,
  ChargeSessionSchema,
  PricingResultSchema,
  EvseSchema,
  ReimbursementArrangementSchema,
  ReimbursementLinkSchema,
  BillingSettingsSchema,
  BillingLogoSchema,
  BillingSeriesSchema,
  ProductCategorySchema,
  ReviewSetSchema,
  ReviewSetOperationSchema,
  BillingBackfillSchema,
  BillingBoxSchema,
  BillingRollupSchema,
  BillingItemSchema,
  DocumentFileSchema,
  BoxDeliverySchema,
  NumberCounterSchema,
  ExchangeRateSchema,
  CpoSubscriptionPlanSchema,
  CpoSubscriptionPlanVersionSchema,
  CpoSubscriptionSchema,
  CpoSubscriptionEvseLinkSchema,
  EvseLocationSchema,
  ReimbursementPlanSchema,
  CalculationInputSchema,
  EvseIdAssignmentSchema,
  SessionReimbursementSchema,
  EventSchema,
  EventCommitSchema,
  WebhookSubscriptionSchema,
  WebhookAttemptSchema,
  OcpiPeerSchema,
  OcpiInvalidCdrSchema,
  OcpiSessionSchema,
  OcpiTariffSchema,
  RoamingCommandSchema,
  OcpiRetiredTokenSchema,
];
