import { getOperationAST, GraphQLError, OperationTypeNode } from 'graphql';
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
