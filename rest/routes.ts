// Every /main/v1 operation, in the order the OpenAPI document lists them.
import { endUserAuthorizationRoutes } from './end-users/end-user-authorization.routes.ts';
import { endUserRoutes } from './end-users/end-user.routes.ts';
import { appApiRoutes } from './end-users/app-api.routes.ts';
import { endUserSiteRoutes } from './end-users/end-user-site.routes.ts';
import { endUserSubscriptionAuthorizationRoutes } from './end-users/end-user-subscription-authorization.routes.ts';
import { administrationRoutes } from './parties/administration.routes.ts';
import { billingAddressRoutes } from './parties/billing-address.routes.ts';
import { customerRoutes } from './parties/customer.routes.ts';
import { directDebitMandateRoutes } from './parties/direct-debit-mandate.routes.ts';
import { instanceRoutes } from './parties/instance.routes.ts';
import { roamingPartnerRoutes } from './parties/roaming-partner.routes.ts';
import { roamingAgreementRoutes } from './roaming/roaming-agreement.routes.ts';
import { roamingConnectionRoutes } from './roaming/roaming-connection.routes.ts';
import { monetaryCreditRoutes } from './msp/monetary-credit.routes.ts';
import { subscriptionCorrectionRoutes } from './msp/subscription-correction.routes.ts';
import { subscriptionPlanRoutes } from './msp/subscription-plan.routes.ts';
import { tokenFulfilmentRoutes } from './msp/token-fulfilment.routes.ts';
import { tokenLinkRoutes } from './msp/token-link.routes.ts';
import { tokenSubscriptionRoutes } from './msp/token-subscription.routes.ts';
import { tokenRoutes } from './msp/token.routes.ts';
import { costCalculationRoutes } from './pricing/cost-calculation.routes.ts';
import { ratePlanRoutes } from './pricing/rate-plan.routes.ts';
import { vatRateRoutes } from './pricing/vat-rate.routes.ts';
import { chargeSessionRoutes } from './sessions/charge-session.routes.ts';
import { chargeSessionBatchRoutes } from './sessions/charge-session-batch.routes.ts';
import { ocpiPeerRoutes } from './ocpi/ocpi-peer.routes.ts';
import { roamingCommandRoutes } from './msp/roaming-command.routes.ts';
import { ocpiInvalidCdrRoutes } from './ocpi/ocpi-invalid-cdr.routes.ts';
import { cpoDropoutCaseRoutes, dropoutCaseRoutes } from './sessions/dropout-case.routes.ts';
import { sessionReimbursementRoutes } from './cpo/session-reimbursement.routes.ts';
import { evseRoutes } from './cpo/evse.routes.ts';
import { reimbursementRoutes } from './cpo/reimbursement.routes.ts';
import { cpoSubscriptionRoutes } from './cpo/cpo-subscription.routes.ts';
import { evseLocationRoutes } from './cpo/evse-location.routes.ts';
import { reimbursementPlanRoutes } from './cpo/reimbursement-plan.routes.ts';
import { billingBoxRoutes } from './billing/billing-box.routes.ts';
import { billingBackfillRoutes } from './billing/billing-backfill.routes.ts';
import { billingConfigRoutes } from './billing/billing-config.routes.ts';
import { billingLogoRoutes } from './billing/billing-logo.routes.ts';
import { billingCustomItemRoutes } from './billing/billing-custom-item.routes.ts';
import { billingDeliveryRoutes } from './billing/billing-delivery.routes.ts';
import { billingReviewSetRoutes } from './billing/billing-review-set.routes.ts';
import { webhookSubscriptionRoutes } from './events/webhook-subscription.routes.ts';
import type { RouteDef } from './rails/route.ts';

export const routes: RouteDef[] = [
  ...instanceRoutes,
  ...administrationRoutes,
  ...customerRoutes,
  ...billingAddressRoutes,
  ...directDebitMandateRoutes,
  ...roamingPartnerRoutes,
  ...roamingConnectionRoutes,
  ...roamingAgreementRoutes,
  ...ocpiPeerRoutes,
  ...roamingCommandRoutes,
  ...ocpiInvalidCdrRoutes,
  ...endUserRoutes,
  ...endUserAuthorizationRoutes,
  ...endUserSubscriptionAuthorizationRoutes,
  ...endUserSiteRoutes,
  ...tokenRoutes,
  // Fixed sub-paths (add-virtual-token) must come before /msp-token-subscription/:id.
  ...tokenFulfilmentRoutes,
  ...monetaryCreditRoutes,
  ...subscriptionCorrectionRoutes,
  ...tokenSubscriptionRoutes,
  ...tokenLinkRoutes,
  ...subscriptionPlanRoutes,
  ...vatRateRoutes,
  ...ratePlanRoutes,
  ...costCalculationRoutes,
  ...chargeSessionRoutes,
  ...chargeSessionBatchRoutes,
  ...dropoutCaseRoutes,
  ...cpoDropoutCaseRoutes,
  ...sessionReimbursementRoutes,
  ...evseRoutes,
  ...evseLocationRoutes,
  ...reimbursementPlanRoutes,
  ...reimbursementRoutes,
  ...cpoSubscriptionRoutes,
  ...billingConfigRoutes,
  ...billingLogoRoutes,
  ...billingBackfillRoutes,
  ...billingReviewSetRoutes,
  ...billingBoxRoutes,
  ...billingCustomItemRoutes,
  ...billingDeliveryRoutes,
  ...webhookSubscriptionRoutes,
  // The App API last: its first segment is a parameter (/{end_user_id}/...), so every Admin path wins.
  ...appApiRoutes,
];
