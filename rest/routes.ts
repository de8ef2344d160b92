// Every /main/v1 operation, in the order the OpenAPI document lists them.
import { endUserAuthorizationRoutes } from './end-users/end-user-authorization.routes.ts';
import { endUserRoutes } from './end-users/end-user.routes.ts';
import { administrationRoutes } from './parties/administration.routes.ts';
import { billingAddressRoutes } from './parties/billing-address.routes.ts';
import { customerRoutes } from './parties/customer.routes.ts';
import { directDebitMandateRoutes } from './parties/direct-debit-mandate.routes.ts';
import { instanceRoutes } from './parties/instance.routes.ts';
import { roamingPartnerRoutes } from './parties/roaming-partner.routes.ts';
import type { RouteDef } from './rails/route.ts';

export const routes: RouteDef[] = [
  ...instanceRoutes,
  ...administrationRoutes,
  ...customerRoutes,
  ...billingAddressRoutes,
  ...directDebitMandateRoutes,
  ...roamingPartnerRoutes,
  ...endUserRoutes,
  ...endUserAuthorizationRoutes,
];
