// What GraphiQL opens with: a note on passing a credential (GraphQL takes the REST credentials,
// HTTP Basic; without one even the schema request answers 401, and GraphiQL shows no docs) and the
// headers editor open with an Authorization header ready to fill in. Headers are not kept in the
// browser's storage: a credential typed there is gone with the tab.
const NOTE = `# Charging network service GraphQL
#
# Every request needs a credential, the same as REST (HTTP Basic). Fill in the
# Authorization header in the Headers tab below, replacing the placeholder:
#
#   "Authorization": "Basic <base64 of public_id:secret>"
#
# In a shell:   printf '%s' 'public_id:secret' | base64
#
# Until then the schema does not load (no docs, no completion) and every
# request answers 401. Headers are not stored: fill it in again after a reload.
#
# For example:
#
#   { administrations { databaseId name currency } }
`;

export const AUTHORIZATION_PLACEHOLDER = 'Basic <base64 of public_id:secret>';

export const GRAPHIQL_OPTIONS = {
  title: 'Charging network service GraphQL',
  query: NOTE,
  headers: JSON.stringify({ Authorization: AUTHORIZATION_PLACEHOLDER }, null, 2),
  defaultEditorToolsVisibility: 'headers' as const,
  shouldPersistHeaders: false,
};
