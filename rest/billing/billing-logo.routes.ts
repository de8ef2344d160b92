// An administration's logo on its billing documents (extension): raw bytes with their content type,
// like document uploads (image/png or image/svg+xml, at most 1 MB).
import { getBillingLogo, removeBillingLogo, setBillingLogo, type LogoInfo } from '../../src/billing/billing-logo.service.ts';
import { DomainError } from '../../src/platform/errors.ts';
import { iso } from '../../src/platform/input-schemas.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { representation, t, type Infer } from '../rails/shape.ts';

const TAG = 'Billing configuration';

const logoShape = representation('BillingLogo', {
  admin_id: t.string(),
  content_type: t.string('image/png or image/svg+xml'),
  size: t.integer(),
  updated_at: t.timestamp(),
});

const serializeLogo = (l: LogoInfo): Infer<typeof logoShape> => ({ admin_id: l.adminId, content_type: l.contentType, size: l.size, updated_at: iso(l.updatedAt) });

export const billingLogoRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/administration/:id/billing-logo', tag: TAG, extension: true, response: t.file(), produces: ['image/png', 'image/svg+xml'],
    summary: "The administration's logo on its billing documents (400 document_missing without one)",
    handler: async ({ em, params }) => {
      const logo = await getBillingLogo(em, params.id);
      return { file: { contentType: logo.content_type, bytes: logo.bytes, filename: `logo.${logo.content_type === 'image/png' ? 'png' : 'svg'}` } };
    },
  }),
  defineRoute({
    method: 'post', path: '/administration/:id/billing-logo', tag: TAG, graphql: 'setBillingLogo', extension: true, response: logoShape, consumes: ['image/png', 'image/svg+xml'],
    summary: "Set the administration's logo on its billing documents (raw bytes, image/png or image/svg+xml, at most 1 MB)",
    description: 'Documents rendered from then on show it in their header; finalized documents keep what they were rendered with. '
      + 'An SVG draws from itself only (no external references, DOCTYPE or scripts).',
    handler: async ({ ctx, em, params }) => serializeLogo(await setBillingLogo(em, params.id, ctx.state.upload)),
  }),
  defineRoute({
    method: 'delete', path: '/administration/:id/billing-logo', tag: TAG, graphql: 'removeBillingLogo', extension: true, response: logoShape,
    summary: "Remove the administration's logo (answers the logo removed)",
    handler: async ({ em, params }) => {
      const removed = await removeBillingLogo(em, params.id);
      if (!removed) throw new DomainError('document_missing', `administration ${params.id} has no logo`);
      return serializeLogo(removed);
    },
  }),
];
