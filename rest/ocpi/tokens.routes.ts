// OCPI tokens module, eMSP sender: GET our tokens, paged as OCPI pages (ocpi-paging.ts).
import { ocpiTokenPage } from '../../src/ocpi/tokens.queries.ts';
import { ocpiPageQuery, setPageHeaders } from './ocpi-paging.ts';
import type { OcpiRoute } from './ocpi-router.ts';

export const tokenRoutes: OcpiRoute[] = [
  {
    method: 'get', path: '/2.2.1/emsp/tokens',
    handler: async ({ ctx, em, query }) => {
      const q = ocpiPageQuery(query);
      const page = await ocpiTokenPage(em, q);
      setPageHeaders(ctx, q, page);
      return { data: page.items, schema: 'tokens' };
    },
  },
];
