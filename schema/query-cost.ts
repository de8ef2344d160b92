// Measures a GraphQL document before it runs (schema/limits.ts says what is allowed): its
// operations and aliases, its depth and the records it may load. Fragments are measured once
// each, so a document of fragments spreading fragments costs a walk over its text, not over
// the (possibly exponential) tree it stands for.
import {
  getNamedType, isCompositeType, isInterfaceType, isListType, isNonNullType, isObjectType, Kind, visit,
  type DocumentNode, type FieldNode, type FragmentDefinitionNode, type GraphQLCompositeType, type GraphQLField,
  type GraphQLSchema, type OperationDefinitionNode, type SelectionSetNode, type ValueNode,
} from 'graphql';

export interface Shape {
  operations: number;
  aliases: number;
  depth: number;
  /** Most type listings (fields, inputFields, ...) nested along one path of an introspection. */
  introspectionListings: number;
  /** `__schema` and `__type` fields, as written (aliases of either answer the schema again). */
  schemaIntrospections: number;
  typeIntrospections: number;
}

/** Members of an introspected type that come as a list; each may hold further types. */
const TYPE_LISTINGS = new Set(['fields', 'inputFields', 'interfaces', 'possibleTypes', 'enumValues']);

function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  return fragments;
}

function isConnectionType(type: GraphQLCompositeType): boolean {
  if (!isObjectType(type)) return false;
  const fields = type.getFields();
  return 'edges' in fields && 'pageInfo' in fields;
}

function isEdgeType(type: GraphQLCompositeType): boolean {
  if (!isObjectType(type)) return false;
  const fields = type.getFields();
  return 'node' in fields && 'cursor' in fields;
}

interface Measure { depth: number; listings: number }

/** The type of `name` selected on `parent`, when it is known and composite. */
function fieldType(schema: GraphQLSchema, parent: GraphQLCompositeType | undefined, name: string): GraphQLCompositeType | undefined {
  if (name === '__schema' || name === '__type') return schema.getType(name === '__schema' ? '__Schema' : '__Type') as GraphQLCompositeType;
  const fields = parent && (isObjectType(parent) || isInterfaceType(parent)) ? parent.getFields() : {};
  const type = Object.hasOwn(fields, name) ? getNamedType(fields[name].type) : undefined;
  return type && isCompositeType(type) ? type : undefined;
}

function conditionType(schema: GraphQLSchema, name: string | undefined, parent: GraphQLCompositeType | undefined) {
  const type = name === undefined ? parent : schema.getType(name);
  return type && isCompositeType(type) ? type : undefined;
}

/**
 * Operations, aliases (as written), the deepest chain of fields and the type listings of
 * introspections. The `node` of a connection's edge adds no level (`edges { node { … } }` is
 * one), nor does `ofType`: it unwraps one type reference (never a list), and the introspection
 * query of GraphiQL nests it nine times.
 */
export function documentShape(schema: GraphQLSchema, document: DocumentNode): Shape {
  const fragments = fragmentsOf(document);
  const measured = new Map<string, Measure>();
  let introspectionListings = 0;

  function measureSelections(selectionSet: SelectionSetNode | undefined, parent: GraphQLCompositeType | undefined): Measure {
    const most: Measure = { depth: 0, listings: 0 };
    for (const selection of selectionSet?.selections ?? []) {
      let measure: Measure;
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        const inner = measureSelections(selection.selectionSet, fieldType(schema, parent, name));
        if (name === '__schema' || name === '__type') introspectionListings = Math.max(introspectionListings, inner.listings);
        const level = name === 'ofType' || (name === 'node' && parent && isEdgeType(parent)) ? 0 : 1;
        measure = { depth: inner.depth + level, listings: inner.listings + (TYPE_LISTINGS.has(name) ? 1 : 0) };
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        measure = measureSelections(selection.selectionSet, conditionType(schema, selection.typeCondition?.name.value, parent));
      } else {
        measure = measureSpread(selection.name.value);
      }
      most.depth = Math.max(most.depth, measure.depth);
      most.listings = Math.max(most.listings, measure.listings);
    }
    return most;
  }

  function measureSpread(name: string): Measure {
    const known = measured.get(name);
    if (known) return known;
    measured.set(name, { depth: 0, listings: 0 }); // a cycle (refused by validation later) adds nothing
    const fragment = fragments.get(name);
    const measure = measureSelections(fragment?.selectionSet, conditionType(schema, fragment?.typeCondition.name.value, undefined));
    measured.set(name, measure);
    return measure;
  }

  let operations = 0;
  let depth = 0;
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) {
      operations++;
      depth = Math.max(depth, measureSelections(definition.selectionSet, schema.getRootType(definition.operation) ?? undefined).depth);
    }
  }
  // Aliases as written: a fragment's aliases count once however often it is spread (its
  // connections are counted at every spread by the cost). `visit` keeps its own stack.
  let aliases = 0;
  let schemaIntrospections = 0;
  let typeIntrospections = 0;
  visit(document, {
    Field(node) {
      if (node.alias) aliases++;
      if (node.name.value === '__schema') schemaIntrospections++;
      if (node.name.value === '__type') typeIntrospections++;
    },
  });
  return { operations, aliases, depth, introspectionListings, schemaIntrospections, typeIntrospections };
}

/**
 * The extensions of a field whose value is read with its parent's row (a JSON column or a
 * computed member shaped as object types: a box's documents, a result's subtotals): no records
 * of its own, so it costs nothing however long its list.
 */
export const EMBEDDED_VALUE = { embedded: true } as const;

/** A limit of the cost walk that is not about the total: a page size. */
export class CostRefusal extends Error {}

export interface CostOptions {
  defaultPageSize: number;
  maxPageSize: number;
  /** What a plain list of records (not a connection) is taken to hold. */
  listEstimate: number;
}

/**
 * The records the operation may load: every object field counts once per parent it is loaded
 * for, multiplied down the tree by page sizes (first/last, else the default) and list sizes.
 * The wrappers of a connection (edges, node, pageInfo) add nothing of their own; introspection
 * costs nothing (no database; its size is bounded by documentShape's listings).
 * Throws CostRefusal for a page size over the maximum.
 */
export function operationCost(
  schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode,
  variables: Record<string, unknown> | undefined, options: CostOptions,
): number {
  const fragments = fragmentsOf(document);
  const memo = new Map<string, number>();
  const defaults = new Map<string, ValueNode | undefined>();
  for (const definition of operation.variableDefinitions ?? []) defaults.set(definition.variable.name.value, definition.defaultValue);

  function value(node: ValueNode | undefined): unknown {
    if (!node) return undefined;
    if (node.kind === Kind.INT) return Number(node.value);
    if (node.kind === Kind.LIST) return node.values;
    if (node.kind === Kind.VARIABLE) {
      const name = node.name.value;
      const given = variables?.[name];
      return given === undefined ? value(defaults.get(name)) : given;
    }
    return undefined;
  }

  function argument(field: FieldNode, name: string): unknown {
    return value(field.arguments?.find((arg) => arg.name.value === name)?.value);
  }

  function pageSize(field: FieldNode): number {
    let size: number | undefined;
    for (const name of ['first', 'last']) {
      const given = argument(field, name);
      if (typeof given !== 'number') continue;
      if (given > options.maxPageSize) {
        throw new CostRefusal(`${name} of ${field.name.value} is ${given}; a page holds at most ${options.maxPageSize}`);
      }
      size = Math.max(size ?? 0, given);
    }
    return Math.max(size ?? options.defaultPageSize, 0);
  }

  /** A plain list: the ids asked for, its `first`, the estimate its field declares (extensions.listEstimate), or the default. */
  function listSize(field: FieldNode, definition: GraphQLField<unknown, unknown>): number {
    const ids = field.name.value === 'nodes' ? argument(field, 'ids') : undefined;
    if (Array.isArray(ids)) return ids.length;
    if (ids !== undefined && ids !== null) return 1;
    const first = argument(field, 'first') ?? value(definition.args.find((arg) => arg.name === 'first')?.astNode?.defaultValue ?? undefined);
    // A negative first (refused when the field runs) must not lower the cost of the rest of the operation.
    if (typeof first === 'number') return Math.max(first, 0);
    const declared = definition.extensions?.listEstimate;
    return typeof declared === 'number' ? declared : options.listEstimate;
  }

  function fieldCost(field: FieldNode, parent: GraphQLCompositeType): number {
    const fields = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields() : {};
    const definition: GraphQLField<unknown, unknown> | undefined = Object.hasOwn(fields, field.name.value) ? fields[field.name.value] : undefined;
    if (!definition) return 0; // __typename, __schema, __type, or a field validation already refused
    const type = getNamedType(definition.type);
    if (!isCompositeType(type) || definition.extensions?.embedded === true) return 0;
    let size = 1;
    let own = 1;
    if (isConnectionType(type) && definition.args.some((arg) => arg.name === 'first')) {
      size = pageSize(field);
    } else if (isConnectionType(parent) || isEdgeType(parent)) {
      own = 0; // edges, node, pageInfo: counted with their connection
    } else if (isListType(isNonNullType(definition.type) ? definition.type.ofType : definition.type)) {
      size = listSize(field, definition);
    }
    return size * (own + selectionCost(field.selectionSet, type));
  }

  function selectionCost(selectionSet: SelectionSetNode | undefined, parent: GraphQLCompositeType): number {
    let cost = 0;
    for (const selection of selectionSet?.selections ?? []) {
      if (selection.kind === Kind.FIELD) {
        cost += fieldCost(selection, parent);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
        if (condition && isCompositeType(condition)) cost += selectionCost(selection.selectionSet, condition);
      } else {
        cost += spreadCost(selection.name.value);
      }
    }
    return cost;
  }

  function spreadCost(name: string): number {
    const known = memo.get(name);
    if (known !== undefined) return known;
    memo.set(name, 0);
    const fragment = fragments.get(name);
    const type = fragment && schema.getType(fragment.typeCondition.name.value);
    const cost = fragment && type && isCompositeType(type) ? selectionCost(fragment.selectionSet, type) : 0;
    memo.set(name, cost);
    return cost;
  }

  const root = schema.getRootType(operation.operation);
  return root ? selectionCost(operation.selectionSet, root) : 0;
}
