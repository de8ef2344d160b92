/** Where GraphQL answers (its GraphiQL assets below it). */
export const GRAPHQL_PATH = '/graphql';
