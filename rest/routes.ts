// Every /main/v1 operation, in the order the OpenAPI document lists them.
import { administrationRoutes } from './parties/administration.routes.ts';
import { customerRoutes } from './parties/customer.routes.ts';
import type { RouteDef } from './rails/route.ts';

export const routes: RouteDef[] = [
  ...administrationRoutes,
  ...customerRoutes,
];
