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
