/**
 * The JSON Schema keywords gridemu's own schemas use (docs/external/*.schema.json), checked: enough
 * for tests to hold real messages against the published schemas without a validator dependency. A
 * schema using a keyword not listed here is an error, so a schema cannot say more than is checked.
 */
const ANNOTATIONS = new Set(['$schema', '$id', 'title', 'description', '$defs']);
const KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'const',
  'enum',
  'oneOf',
  'items',
  'minItems',
  'uniqueItems',
  'minimum',
  'minLength',
  '$ref',
]);

type Schema = Readonly<Record<string, unknown>>;

/** What is wrong with `value` against `schema` (empty: it conforms), each naming its JSON path. */
export function schemaProblems(schema: Schema, value: unknown, root: Schema = schema, path = '$'): string[] {
  for (const k of Object.keys(schema))
    if (!ANNOTATIONS.has(k) && !KEYWORDS.has(k)) throw new Error(`schema keyword ${k} at ${path} is not supported`);
  if (typeof schema['$ref'] === 'string') {
    const ref = schema['$ref'];
    if (!ref.startsWith('#/')) throw new Error(`only local references: ${ref}`);
    const target = ref
      .slice(2)
      .split('/')
      .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], root);
    return schemaProblems(target as Schema, value, root, path);
  }
  const out: string[] = [];
  if ('const' in schema && JSON.stringify(schema['const']) !== JSON.stringify(value))
    out.push(`${path}: must be ${JSON.stringify(schema['const'])}`);
  if (Array.isArray(schema['enum']) && !schema['enum'].some((e) => JSON.stringify(e) === JSON.stringify(value)))
    out.push(`${path}: must be one of ${JSON.stringify(schema['enum'])}`);
  if (schema['oneOf']) {
    const passing = (schema['oneOf'] as Schema[]).filter((s) => schemaProblems(s, value, root, path).length === 0);
    if (passing.length !== 1) out.push(`${path}: matches ${passing.length} of the oneOf alternatives, not exactly one`);
  }
  const type = schema['type'];
  if (type !== undefined && !hasType(value, type as string)) return [...out, `${path}: must be of type ${type}`];
  if (typeof value === 'number' && typeof schema['minimum'] === 'number' && value < schema['minimum'])
    out.push(`${path}: must be at least ${schema['minimum']}`);
  if (typeof value === 'string' && typeof schema['minLength'] === 'number' && value.length < schema['minLength'])
    out.push(`${path}: must have at least ${schema['minLength']} characters`);
  if (Array.isArray(value)) {
    if (typeof schema['minItems'] === 'number' && value.length < schema['minItems'])
      out.push(`${path}: must have at least ${schema['minItems']} items`);
    if (schema['uniqueItems'] === true && new Set(value.map((v) => JSON.stringify(v))).size !== value.length)
      out.push(`${path}: items must be unique`);
    if (schema['items'])
      value.forEach((v, i) => out.push(...schemaProblems(schema['items'] as Schema, v, root, `${path}[${i}]`)));
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    const props = (schema['properties'] ?? {}) as Record<string, Schema>;
    for (const r of (schema['required'] ?? []) as string[]) if (!(r in o)) out.push(`${path}: must have ${r}`);
    for (const [k, v] of Object.entries(o)) {
      if (props[k]) out.push(...schemaProblems(props[k], v, root, `${path}.${k}`));
      else if (schema['additionalProperties'] === false) out.push(`${path}: has ${k}, which the schema does not allow`);
    }
  }
  return out;
}

function hasType(v: unknown, type: string): boolean {
  switch (type) {
    case 'object':
      return v !== null && typeof v === 'object' && !Array.isArray(v);
    case 'array':
      return Array.isArray(v);
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'integer':
      return Number.isInteger(v);
    default:
      throw new Error(`schema type ${type} is not supported`);
  }
}
