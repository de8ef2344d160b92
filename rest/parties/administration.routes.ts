import { administrationList, type AdministrationData } from '../../src/parties/administration.queries.ts';
import { defineRoute } from '../rails/route.ts';
import { listOf } from '../rails/pagination.ts';
import { iso } from '../../src/platform/input-schemas.ts';
import { representation, t, type Infer } from '../rails/shape.ts';

export const administrationShape = representation('Administration', {
  id: t.string(),
  name: t.string(),
  currency: t.string(),
  country: t.string(),
  locale_id: t.nullable(t.string()),
  seller_id: t.nullable(t.string()),
  seller_name: t.nullable(t.string()),
  seller_county: t.nullable(t.string('The seller\'s country (the interface spec\'s name).')),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

export function serializeAdministration(a: AdministrationData): Infer<typeof administrationShape> {
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
    response: listOf(administrationShape),
    handler: async ({ em }) => {
      const admins = await administrationList(em).all();
      return { items: admins.map(serializeAdministration) };
    },
  }),
];
