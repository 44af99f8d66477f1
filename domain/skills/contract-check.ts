/**
 * Proves the executor's zod contract and the declared JSON Schema describe the same thing
 * (spec 002, registration check 2): same properties, same required set, same types and enums,
 * at every depth. Constraints such as minLength are left to each side; shape drift is what breaks callers.
 */
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

export interface ContractMismatch {
  path: string;
  problem: string;
}

export function compareContract(zodSchema: z.ZodType, declared: JsonSchema, io: 'input' | 'output'): ContractMismatch[] {
  const fromZod = z.toJSONSchema(zodSchema, { io, unrepresentable: 'any' }) as JsonSchema;
  return compareNode(declared, fromZod, '$');
}

function compareNode(declared: JsonSchema, actual: JsonSchema, at: string): ContractMismatch[] {
  const mismatches: ContractMismatch[] = [];
  const declaredTypes = typesOf(declared);
  const actualTypes = typesOf(actual);
  if (declaredTypes.join('|') !== actualTypes.join('|')) {
    mismatches.push({ path: at, problem: `declared type ${declaredTypes.join('|') || '(any)'} but the zod contract has ${actualTypes.join('|') || '(any)'}` });
    return mismatches;
  }
  const declaredEnum = enumOf(declared);
  const actualEnum = enumOf(actual);
  if (declaredEnum !== actualEnum) {
    mismatches.push({ path: at, problem: `declared enum ${declaredEnum ?? '(none)'} but the zod contract has ${actualEnum ?? '(none)'}` });
  }
  if (declaredTypes.includes('object')) {
    const declaredProperties = propertiesOf(declared);
    const actualProperties = propertiesOf(actual);
    for (const name of Object.keys(declaredProperties)) {
      if (!(name in actualProperties)) mismatches.push({ path: `${at}.${name}`, problem: 'declared but missing from the zod contract' });
    }
    for (const name of Object.keys(actualProperties)) {
      if (!(name in declaredProperties)) mismatches.push({ path: `${at}.${name}`, problem: 'in the zod contract but not declared' });
    }
    const declaredRequired = requiredOf(declared);
    const actualRequired = requiredOf(actual);
    if (declaredRequired !== actualRequired) {
      mismatches.push({ path: at, problem: `declared required [${declaredRequired}] but the zod contract requires [${actualRequired}]` });
    }
    if ((declared.additionalProperties === false) !== (actual.additionalProperties === false)) {
      mismatches.push({ path: at, problem: 'additionalProperties differs (one side is closed, the other open)' });
    }
    for (const [name, sub] of Object.entries(declaredProperties)) {
      const other = actualProperties[name];
      if (other) mismatches.push(...compareNode(sub, other, `${at}.${name}`));
    }
  }
  if (declaredTypes.includes('array')) {
    const declaredItems = asSchema(declared.items);
    const actualItems = asSchema(actual.items);
    if (declaredItems && actualItems) mismatches.push(...compareNode(declaredItems, actualItems, `${at}[]`));
    else if (declaredItems !== actualItems) mismatches.push({ path: `${at}[]`, problem: 'items declared on one side only' });
  }
  return mismatches;
}

/** The set of JSON types a node allows; anyOf of simple branches (zod's nullable) is flattened. */
function typesOf(node: JsonSchema): string[] {
  const types = new Set<string>();
  const add = (value: unknown) => {
    if (typeof value === 'string') types.add(value);
    else if (Array.isArray(value)) value.forEach(add);
  };
  add(node.type);
  if (Array.isArray(node.anyOf)) for (const branch of node.anyOf) add(asSchema(branch)?.type);
  if (types.size === 0 && Array.isArray(node.enum)) for (const value of node.enum) types.add(value === null ? 'null' : typeof value);
  return [...types].sort();
}

function enumOf(node: JsonSchema): string | null {
  if (Array.isArray(node.enum)) return JSON.stringify([...node.enum].map(String).sort());
  if ('const' in node) return JSON.stringify([String(node.const)]);
  return null;
}

function propertiesOf(node: JsonSchema): Record<string, JsonSchema> {
  const properties = asSchema(node.properties) ?? {};
  return Object.fromEntries(Object.entries(properties).map(([name, sub]) => [name, asSchema(sub) ?? {}]));
}

function requiredOf(node: JsonSchema): string {
  return Array.isArray(node.required) ? [...node.required].map(String).sort().join(', ') : '';
}

function asSchema(value: unknown): JsonSchema | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonSchema) : null;
}
