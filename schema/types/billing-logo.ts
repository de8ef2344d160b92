// An administration's logo on its billing documents (REST: /administration/{id}/billing-logo). GraphQL
// strings are bounded (10,000 characters, schema/input-strings.ts) and a request to 1 MiB, so the
// bytes come as base64 in pieces that are joined: a logo of up to about 750 KB (REST takes 1 MB).
import { removeBillingLogo, setBillingLogo, visibleBillingLogoInfo, type LogoInfo } from '../../src/billing/billing-logo.service.ts';
import { BASE64_PIECES, decodePieces } from '../base64-pieces.ts';
import { builder } from '../builder.ts';
import { FIELD_ARGUMENTS, mutate } from '../mutation.ts';
import { DateTime } from './date-time.ts';

const BillingLogo = builder.objectRef<LogoInfo>('BillingLogo').implement({
  description: "An administration's logo on its billing documents (PNG or SVG, at most 1 MB).",
  fields: (t) => ({
    adminId: t.exposeString('adminId'),
    contentType: t.exposeString('contentType', { description: 'image/png or image/svg+xml' }),
    size: t.exposeInt('size', { description: 'Bytes.' }),
    updatedAt: t.field({ type: DateTime, resolve: (l) => l.updatedAt }),
  }),
});

builder.queryField('billingLogo', (t) => t.field({
  type: BillingLogo, nullable: true, description: "The administration's logo; null without one (REST: GET /administration/{id}/billing-logo answers the bytes).",
  args: { adminId: t.arg.string({ required: true }) },
  resolve: (_root, args, context) => visibleBillingLogoInfo(context.em, args.adminId),
}));

builder.mutationField('setBillingLogo', (t) => t.field({
  type: BillingLogo,
  description: "Sets the administration's logo on its billing documents (REST: POST /administration/{id}/billing-logo with the raw bytes).",
  args: {
    adminId: t.arg.string({ required: true }),
    contentType: t.arg.string({ required: true, description: 'image/png or image/svg+xml' }),
    data: t.arg.stringList({ required: true, description: BASE64_PIECES }),
  },
  resolve: (_root, args, context) => mutate(context, FIELD_ARGUMENTS, (em) => setBillingLogo(em, args.adminId, { contentType: args.contentType, bytes: decodePieces(args.data) })),
}));

builder.mutationField('removeBillingLogo', (t) => t.field({
  type: 'Boolean', description: "Removes the administration's logo; false when it had none (REST: DELETE /administration/{id}/billing-logo).",
  args: { adminId: t.arg.string({ required: true }) },
  resolve: (_root, args, context) => mutate(context, FIELD_ARGUMENTS, async (em) => (await removeBillingLogo(em, args.adminId)) !== null),
}));
