import { Administration } from '../../src/parties/administration.entity.ts';
import { defineRoute } from '../rails/route.ts';
import { iso } from '../rails/schemas.ts';

export function serializeAdministration(a: Administration) {
  return {
    id: a.id,
    name: a.name,
    currency: a.currency,
    country: a.country,
    locale_id: a.localeId ?? null,
    seller_id: a.seller?.id ?? null,
    seller_name: a.seller?.name ?? null,
    // The interface spec names this field seller_county; it holds the seller's country.
    seller_county: a.seller?.country ?? null,
    created_at: iso(a.createdAt),
    updated_at: iso(a.updatedAt),
  };
}

export const administrationRoutes = [
  defineRoute({
    method: 'get', path: '/administration', tag: 'Administrations', summary: 'List administrations (not paged)',
    handler: async ({ em }) => {
      const admins = await em.find(Administration, {}, { orderBy: { id: 'asc' }, populate: ['seller'] });
      return { items: admins.map(serializeAdministration) };
    },
  }),
];
