import type { RouteDef } from '../rails/route.ts';

export const tokenSubscriptionRoutes: RouteDef[] = [];
