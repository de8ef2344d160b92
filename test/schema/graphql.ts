import type { Auth, Response, TestApp } from '../helpers/app.ts';

export interface GraphQLBody {
  data?: Record<string, any> | null;
  errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, any> }[];
}

/** POST /graphql with the app's admin credential unless `auth` says otherwise. */
export function graphql(app: TestApp, query: string, variables: Record<string, unknown> = {}, auth?: Auth | null): Promise<Response<GraphQLBody>> {
  return app.request('POST', '/graphql', { body: { query, variables }, auth });
}

/** The data of a response that must have no errors. */
export async function data(app: TestApp, query: string, variables: Record<string, unknown> = {}, auth?: Auth | null): Promise<Record<string, any>> {
  const response = await graphql(app, query, variables, auth);
  if (response.status !== 200 || response.body.errors) throw new Error(`GraphQL ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body.data!;
}

/** A mutation's first error: HTTP status, its code and param, and the field's data. */
export async function failure(app: TestApp, query: string, variables: Record<string, unknown>, auth?: Auth) {
  const r = await graphql(app, query, variables, auth);
  const [error] = r.body.errors ?? [];
  return { status: r.status, code: error?.extensions?.code, param: error?.extensions?.param ?? error?.extensions?.details?.[0]?.param, data: r.body.data };
}

/** A REST GET that must answer 200: its body (what a GraphQL write is compared with). */
export async function restBody(app: TestApp, path: string) {
  const r = await app.request('GET', `/main/v1${path}`);
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}
