/**
 * server/db/schema.ts is written by hand; this holds it to what the migrations build. Each backend
 * gets a fresh database migrated to the latest version, and its tables, columns, nullability and
 * defaults are compared with the interfaces of `Database` (read with the TypeScript compiler).
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../server/db/database.ts';
import { BACKENDS, freshPostgresDatabase } from './harness.ts';

interface ColumnShape {
  nullable: boolean;
  optionalOnInsert: boolean;
  kind: string;
}

/** Kysely's migrator keeps its own tables (server/db/database.ts); the code never queries them. */
const MIGRATOR_TABLES = ['schema_migrations', 'schema_migrations_lock'];
const SCHEMA_FILE = new URL('../../server/db/schema.ts', import.meta.url);

/** The `Database` interface as table → column → shape, from the source text. */
function declaredTables(): Map<string, Map<string, ColumnShape>> {
  const source = ts.createSourceFile('schema.ts', readFileSync(SCHEMA_FILE, 'utf8'), ts.ScriptTarget.Latest, true);
  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  const aliases = new Map<string, ts.TypeNode>();
  source.forEachChild((node) => {
    if (ts.isInterfaceDeclaration(node)) interfaces.set(node.name.text, node);
    if (ts.isTypeAliasDeclaration(node)) aliases.set(node.name.text, node.type);
  });
  const resolve = (type: ts.TypeNode): ts.TypeNode => {
    if (
      ts.isTypeReferenceNode(type) &&
      ts.isIdentifier(type.typeName) &&
      aliases.has(type.typeName.text) &&
      !type.typeArguments
    )
      return resolve(aliases.get(type.typeName.text)!);
    if (ts.isParenthesizedTypeNode(type)) return resolve(type.type);
    return type;
  };
  const members = (type: ts.TypeNode): ts.TypeNode[] => {
    const resolved = resolve(type);
    return ts.isUnionTypeNode(resolved) ? resolved.types.flatMap(members) : [resolved];
  };
  const isNull = (type: ts.TypeNode) => ts.isLiteralTypeNode(type) && type.literal.kind === ts.SyntaxKind.NullKeyword;
  const isUndefined = (type: ts.TypeNode) => type.kind === ts.SyntaxKind.UndefinedKeyword;
  /** `never` on insert: the column is always left out (a trigger or a default fills it). */
  const isNever = (type: ts.TypeNode) => type.kind === ts.SyntaxKind.NeverKeyword;
  /** The TypeScript side of a column, in the words of the database's types. */
  const kindOf = (types: ts.TypeNode[]): string => {
    const kinds = new Set(
      types
        .filter((t) => !isNull(t))
        .map((t) => {
          if (
            t.kind === ts.SyntaxKind.NumberKeyword ||
            (ts.isLiteralTypeNode(t) && (ts.isNumericLiteral(t.literal) || ts.isPrefixUnaryExpression(t.literal)))
          )
            return 'number';
          if (t.kind === ts.SyntaxKind.StringKeyword || (ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal)))
            return 'string';
          if (t.kind === ts.SyntaxKind.BooleanKeyword) return 'boolean';
          if (ts.isTypeReferenceNode(t) && t.typeName.getText() === 'Date') return 'Date';
          if (ts.isArrayTypeNode(t)) return 'array';
          return 'other';
        }),
    );
    return [...kinds].sort().join('|');
  };
  const shapeOf = (type: ts.TypeNode): ColumnShape => {
    const resolved = resolve(type);
    if (ts.isTypeReferenceNode(resolved) && resolved.typeArguments) {
      const [select, insert] = resolved.typeArguments;
      const name = resolved.typeName.getText();
      if (name === 'Generated')
        return { nullable: members(select).some(isNull), optionalOnInsert: true, kind: kindOf(members(select)) };
      if (name === 'ColumnType')
        return {
          nullable: members(select).some(isNull),
          optionalOnInsert: members(insert).some((t) => isUndefined(t) || isNever(t)),
          kind: kindOf(members(select)),
        };
    }
    const union = members(resolved);
    return { nullable: union.some(isNull), optionalOnInsert: false, kind: kindOf(union) };
  };
  const tables = new Map<string, Map<string, ColumnShape>>();
  for (const member of interfaces.get('Database')!.members) {
    if (!ts.isPropertySignature(member) || !member.type || !ts.isTypeReferenceNode(member.type)) continue;
    const table = interfaces.get(member.type.typeName.getText())!;
    tables.set(
      member.name.getText(),
      new Map(
        table.members.filter(ts.isPropertySignature).map((column) => [column.name.getText(), shapeOf(column.type!)]),
      ),
    );
  }
  return tables;
}

/** A database type in the words of the TypeScript side (INT8 arrives as a number on both backends). */
function kindOfDataType(dataType: string): string {
  if (/^(int2|int4|int8|float4|float8|numeric)$/.test(dataType)) return 'number';
  if (/^(text|varchar|bpchar|citext|uuid)$/.test(dataType)) return 'string';
  if (dataType === 'bool') return 'boolean';
  if (/^timestamp/.test(dataType)) return 'Date';
  if (dataType.startsWith('_')) return 'array';
  return 'other';
}

describe.each(BACKENDS)('the schema types against a migrated %s database', (backend) => {
  let handle: DatabaseHandle;
  let dropDatabase = async () => {};
  beforeAll(async () => {
    if (backend === 'postgres') {
      const fresh = await freshPostgresDatabase();
      dropDatabase = fresh.drop;
      handle = await openDatabase({ databaseUrl: fresh.url });
    } else {
      handle = await openDatabase({});
    }
    await migrateToLatest(handle.db);
  });
  afterAll(async () => {
    await handle?.close();
    await dropDatabase();
  });

  it('declares every table and column the migrations create, and no other', async () => {
    const declared = declaredTables();
    const actual = await handle.db.introspection.getTables();
    const columnsOf = (tables: Iterable<[string, Iterable<string>]>) =>
      [...tables].flatMap(([table, columns]) => [...columns].map((column) => `${table}.${column}`)).sort();
    expect(
      columnsOf([...declared].map(([table, columns]) => [table, columns.keys()])),
      'server/db/schema.ts against the migrated database',
    ).toEqual(
      columnsOf(
        actual
          .filter((t) => t.schema === 'public' && !MIGRATOR_TABLES.includes(t.name))
          .map((t) => [t.name, t.columns.map((c) => c.name)]),
      ),
    );
  });

  it('gives each column the nullability, the default and the type the database has', async () => {
    const declared = declaredTables();
    const drift: string[] = [];
    for (const table of (await handle.db.introspection.getTables()).filter((t) => !MIGRATOR_TABLES.includes(t.name))) {
      for (const column of table.columns) {
        const shape = declared.get(table.name)?.get(column.name);
        if (!shape) continue; // reported by the test above
        const where = `${table.name}.${column.name}`;
        if (shape.nullable !== column.isNullable)
          drift.push(
            `${where}: ${column.isNullable ? 'nullable' : 'NOT NULL'} in the database, ${shape.nullable ? 'nullable' : 'not'} in schema.ts`,
          );
        // A column the database fills (a default, a sequence) may be left out of an insert, and only such a column.
        const filled = column.hasDefaultValue || column.isAutoIncrementing;
        if (filled !== shape.optionalOnInsert && !(column.isNullable && shape.optionalOnInsert))
          drift.push(
            `${where}: ${filled ? 'has' : 'has no'} default in the database, ${shape.optionalOnInsert ? 'optional' : 'required'} on insert in schema.ts`,
          );
        const kind = kindOfDataType(column.dataType);
        if (kind !== 'other' && shape.kind !== 'other' && kind !== shape.kind)
          drift.push(`${where}: ${column.dataType} in the database, ${shape.kind} in schema.ts`);
      }
    }
    expect(drift).toEqual([]);
  });
});
