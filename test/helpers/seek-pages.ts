// A list read to its end as a client pages it: forwards through REST (`page_size` and the `after` of
// each `link_next`) and backwards through GraphQL (`last` and `before`), two items a page.
import type { Auth, TestApp } from './app.ts';
import { data } from '../schema/graphql.ts';

const MAX_PAGES = 20;

const afterOf = (linkNext: string) => new URLSearchParams(linkNext.split('?')[1]).get('after');

/** The `key` of every item of `path` (a REST list), in the order of its pages. */
export async function restPages(app: TestApp, path: string, auth: Auth, key = 'id'): Promise<string[]> {
  const seen: string[] = [];
  let after: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const response = await app.request('GET', `${path}?page_size=2${after ? `&after=${encodeURIComponent(after)}` : ''}`, { auth });
    if (response.status !== 200) throw new Error(JSON.stringify(response.body));
    seen.push(...response.body.items.map((item: any) => item[key]));
    if (!response.body.link_next) return seen;
    after = afterOf(response.body.link_next);
  }
  throw new Error(`more than ${MAX_PAGES} pages`);
}

/** The `key` of every node of the connection `field`, read from its last page back to its first. */
export async function graphQlPagesBackwards(app: TestApp, field: string, auth: Auth, key = 'databaseId'): Promise<string[]> {
  const query = `query ($before: String) {
    ${field}(last: 2, before: $before) { edges { node { ${key} } } pageInfo { hasPreviousPage startCursor } }
  }`;
  const seen: string[] = [];
  let before: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const connection: any = (await data(app, query, { before }, auth))[field];
    seen.unshift(...connection.edges.map((edge: any) => edge.node[key]));
    if (!connection.pageInfo.hasPreviousPage) return seen;
    before = connection.pageInfo.startCursor;
  }
  throw new Error(`more than ${MAX_PAGES} pages`);
}
