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
/** Mutations of the App API (schema/types/viewer.ts): the App's writes, for its end user. */
export const APP_MUTATIONS = new Set(['registerEndUser', 'cancelViewerSubscription', 'switchViewerSubscriptionPlan']);

/**
 * An App credential reads through `viewer` only and writes through the App API's mutations only:
 * no other root field (HTTP 403, like an App credential on the Admin REST API). Fragments at the
 * root are refused too (they could name any field).
 */
export const appCredentials: Plugin<GraphQLContext> = {
  onExecute({ args, setResultAndStopExecution }) {
    const { actor } = args.contextValue as GraphQLContext;
    if (actor.role !== 'app') return;
    const operation = getOperationAST(args.document, args.operationName);
    const rootFields = operation?.operation === OperationTypeNode.QUERY ? APP_ROOT_FIELDS
      : operation?.operation === OperationTypeNode.MUTATION ? APP_MUTATIONS : null;
    const allowed = rootFields !== null
      && operation!.selectionSet.selections.every((s) => s.kind === Kind.FIELD && rootFields.has(s.name.value));
    if (!allowed) {
      setResultAndStopExecution({
        errors: [new GraphQLError('an App credential may only query viewer and call the App API\'s mutations', { extensions: { code: 'FORBIDDEN' satisfies GraphQLErrorCode, http: { status: 403 } } })],
      });
    }
  },
};
