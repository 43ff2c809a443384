/**
 * Handlers are one expression calling their service (docs/decisions/0028): the route entry names
 * the resource and the permission, the mount loads and checks it, the service checks what it
 * does. Read from the handlers' source, so a handler that loads an owner and asks the policy
 * itself, or grows into several statements, fails here rather than in review.
 */
import { readdirSync, readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const DIR = new URL('../../server/app/handlers/', import.meta.url);
const ROUTE_KEY = /^(GET|POST|PUT|PATCH|DELETE) /;

/**
 * Handlers still written as several statements (docs/decisions/0028 would give each its reason).
 * None is left: what a handler needs of HTTP (cookies, a conditional GET, a stream, a form, a file)
 * is a response helper of server/app/handlers/, and what combines services is a service method.
 * The list only shrinks; it stays so that a new exception has to be named here and argued there.
 */
const SEVERAL_STATEMENTS = new Set<string>([]);

interface Found {
  key: string;
  file: string;
  oneExpression: boolean;
}

/** Every handler of the handler files: its key, and whether it is one expression. */
function handlers(): { found: Found[]; authorizeCalls: string[] } {
  const found: Found[] = [];
  const authorizeCalls: string[] = [];
  for (const file of readdirSync(DIR).filter((name) => name.endsWith('.ts'))) {
    const source = ts.createSourceFile(file, readFileSync(new URL(file, DIR), 'utf8'), ts.ScriptTarget.Latest, true);
    // Functions declared in the file by name (a handler may be one: `tus`, or made by one: `vote(1, false)`).
    const declared = new Map<string, ts.Expression>();
    const visit = (node: ts.Node) => {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer)
        declared.set(node.name.text, node.initializer);
      if (ts.isIdentifier(node) && (node.text === 'authorize' || node.text === 'refusal'))
        authorizeCalls.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
      ts.forEachChild(node, visit);
    };
    visit(source);
    const isOneExpression = (expression: ts.Expression): boolean => {
      if (ts.isArrowFunction(expression))
        return !ts.isBlock(expression.body) || isOneExpression(expression.body as never);
      if (ts.isIdentifier(expression))
        return declared.has(expression.text) && isOneExpression(declared.get(expression.text)!);
      // A handler made by a factory of the file: the factory and what it returns are one expression each.
      if (ts.isCallExpression(expression) && ts.isIdentifier(expression.expression)) {
        const factory = declared.get(expression.expression.text);
        return (
          !!factory &&
          ts.isArrowFunction(factory) &&
          !ts.isBlock(factory.body) &&
          isOneExpression(factory.body as ts.Expression)
        );
      }
      return false;
    };
    const collect = (node: ts.Node) => {
      if (ts.isPropertyAssignment(node) && ts.isStringLiteral(node.name) && ROUTE_KEY.test(node.name.text)) {
        found.push({ key: node.name.text, file, oneExpression: isOneExpression(node.initializer) });
      }
      ts.forEachChild(node, collect);
    };
    collect(source);
  }
  return { found, authorizeCalls };
}

describe('the handlers', () => {
  const { found, authorizeCalls } = handlers();

  test('are found (every handler file is read)', () => {
    expect(found.length).toBeGreaterThan(150);
  });

  test('never ask the policy themselves: the route entry names the resource, the mount checks it', () => {
    expect(authorizeCalls).toEqual([]);
  });

  test('are one expression, but for the listed ones', () => {
    const several = found
      .filter((h) => !h.oneExpression)
      .map((h) => h.key)
      .sort();
    expect(
      several.filter((key) => !SEVERAL_STATEMENTS.has(key)),
      'new handlers of several statements',
    ).toEqual([]);
    expect(
      [...SEVERAL_STATEMENTS].filter((key) => !several.includes(key)),
      'now one expression: take them off the list',
    ).toEqual([]);
  });
});
