// One Relay environment per signed-in credential: every operation is a POST to /graphql with the
// credential's Basic header. Any GraphQL error fails the operation (shown with code and field).
import { Environment, Network, RecordSource, Store, type FetchFunction } from 'relay-runtime';
import { authorizationHeader, type Credential } from '../auth.ts';
import { apiErrorFrom } from './errors.ts';

export const GRAPHQL_PATH = '/graphql';

export async function postGraphQL(credential: Credential, query: string, variables: Record<string, unknown>): Promise<{ data?: unknown; errors?: unknown; status: number }> {
  const response = await fetch(GRAPHQL_PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', authorization: authorizationHeader(credential) },
    body: JSON.stringify({ query, variables }),
    credentials: 'omit',
  });
  let body: { data?: unknown; errors?: unknown } = {};
  try {
    body = await response.json();
  } catch {
    body = { errors: [{ message: `HTTP ${response.status} ${response.statusText}` }] };
  }
  return { ...body, status: response.status };
}

export function createEnvironment(credential: Credential, onUnauthorized: () => void): Environment {
  const fetchFn: FetchFunction = async (operation, variables) => {
    const result = await postGraphQL(credential, operation.text ?? '', variables);
    if (result.status === 401) onUnauthorized();
    if (Array.isArray(result.errors) && result.errors.length) throw apiErrorFrom(result.errors, result.status);
    return { data: result.data as never };
  };
  return new Environment({ network: Network.create(fetchFn), store: new Store(new RecordSource()) });
}

/** The global ID of a record from its type and REST id (Relay's `Type:id` in base64, as the schema encodes it). */
export function globalId(type: string, restId: string): string {
  const bytes = new TextEncoder().encode(`${type}:${restId}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
