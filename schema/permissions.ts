import { getOperationAST, GraphQLError, Kind, OperationTypeNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GraphQLErrorCode } from '../src/platform/error-codes.ts';
import type { GraphQLContext } from './context.ts';

/** A readonly credential may query but not mutate (HTTP 403, like a REST write). */
export const readOnlyCredentials: Plugin<GraphQLContext> = {
  onExecute({ args, setResultAndStopExecution }) {
    const operation = getOperationAST(args.document, args.operationName);
    const { actor } = args.contextValue as GraphQLContext;
    if (operation?.operation === OperationTypeNode.MUTATION && actor.role === 'readonly') {
      setResultAndStopExecution({
        errors: [new GraphQLError('this credential may only read', { extensions: { code: 'FORBIDDEN' satisfies GraphQLErrorCode, http: { status: 403 } } })],
      });
    }
  },
};

/** Root fields an App credential may select: the viewer (and introspection). */
const APP_ROOT_FIELDS = new Set(['viewer', '__typename', '__schema', '__type']);

/**
 * An App credential reads through `viewer` only: no mutation, no other root field (HTTP 403, like
 * an App credential on the Admin REST API). Fragments at the root are refused too (they could
 * name any field).
 */
export const appCredentials: Plugin<GraphQLContext> = {
  onExecute({ args, setResultAndStopExecution }) {
    const { actor } = args.contextValue as GraphQLContext;
    if (actor.role !== 'app') return;
    const operation = getOperationAST(args.document, args.operationName);
    const allowed = operation?.operation === OperationTypeNode.QUERY
      && operation.selectionSet.selections.every((s) => s.kind === Kind.FIELD && APP_ROOT_FIELDS.has(s.name.value));
    if (!allowed) {
      setResultAndStopExecution({
        errors: [new GraphQLError('an App credential may only query viewer', { extensions: { code: 'FORBIDDEN' satisfies GraphQLErrorCode, http: { status: 403 } } })],
      });
    }
  },
};
