// A DateTime written into the query text fails in validation, where graphql-js drops the path of
// the value: this names the argument ($.input.validFrom) in the message and in extensions.param,
// as a variable's error and the services' errors do.
import { GraphQLError, Kind, visit, type ASTNode, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { DateTimeInputError } from './types/date-time.ts';

/** `$.input.links[0].validFrom` of the literal starting at `offset`, through arguments, fields and list items. */
function argumentPathAt(document: DocumentNode, offset: number): string | null {
  const segments: (string | null)[] = [];
  let found: string | null = null;
  visit(document, {
    enter(node, key, _parent, _path, ancestors) {
      const inList = typeof key === 'number' && (ancestors.at(-1) as ASTNode | undefined)?.kind === Kind.LIST;
      segments.push(node.kind === Kind.ARGUMENT || node.kind === Kind.OBJECT_FIELD ? `.${node.name.value}` : inList ? `[${key}]` : null);
      if (node.kind === Kind.STRING && node.loc?.start === offset) found ??= `$${segments.filter(Boolean).join('')}`;
    },
    leave() { segments.pop(); },
  });
  return found;
}

export const dateTimeLiterals: Plugin = {
  onValidate({ params }) {
    return ({ result, setResult }) => {
      if (!result.some((error) => error instanceof DateTimeInputError)) return;
      setResult(result.map((error) => {
        const offset = error instanceof DateTimeInputError ? error.nodes?.[0]?.loc?.start : undefined;
        const param = offset === undefined ? null : argumentPathAt(params.documentAST, offset);
        if (!param) return error;
        return new GraphQLError(`${param.slice(2)}: ${error.message}`, {
          nodes: error.nodes, extensions: { code: 'validation_failed', param },
        });
      }));
    };
  },
};
