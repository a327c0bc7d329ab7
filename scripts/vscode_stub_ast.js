// The declarations of VS Code's API (`declare module 'vscode' { … }` in @types/vscode and the proposals' .d.ts) as
// JSON, read with the TypeScript compiler package.json pins: scripts/vscode_stub.py turns it into vscode.pyi.
//   node scripts/vscode_stub_ast.js FILE.d.ts…   → JSON on stdout: {declarations: [...]}
// Only the shapes are kept (names, type parameters, members, parameters, types); documentation is left out.
'use strict';
const path = require('path');
const fs = require('fs');

const ts = require(path.join(__dirname, '..', 'node_modules', 'typescript'));

function has(node, kind) {
    return !!(node.modifiers && node.modifiers.some((modifier) => modifier.kind === kind));
}

function nameOf(node) {
    if (!node.name) return null;
    if (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name) || ts.isNumericLiteral(node.name)) return node.name.text;
    return null; // a computed name ([Symbol.iterator]): no Python attribute
}

function typeParams(node) {
    return (node.typeParameters || []).map((param) => ({
        name: param.name.text,
        bound: param.constraint ? type(param.constraint) : null,
        default: param.default ? type(param.default) : null,
    }));
}

function params(node) {
    return node.parameters.map((param) => ({
        name: ts.isIdentifier(param.name) ? param.name.text : null, // a destructured parameter has no name
        type: param.type ? type(param.type) : { k: 'kw', n: 'any' },
        opt: !!param.questionToken || !!param.initializer,
        rest: !!param.dotDotDotToken,
    }));
}

const KEYWORDS = {
    [ts.SyntaxKind.StringKeyword]: 'string', [ts.SyntaxKind.NumberKeyword]: 'number',
    [ts.SyntaxKind.BooleanKeyword]: 'boolean', [ts.SyntaxKind.AnyKeyword]: 'any',
    [ts.SyntaxKind.UnknownKeyword]: 'unknown', [ts.SyntaxKind.VoidKeyword]: 'void',
    [ts.SyntaxKind.UndefinedKeyword]: 'undefined', [ts.SyntaxKind.NeverKeyword]: 'never',
    [ts.SyntaxKind.ObjectKeyword]: 'object', [ts.SyntaxKind.SymbolKeyword]: 'symbol',
    [ts.SyntaxKind.BigIntKeyword]: 'bigint', [ts.SyntaxKind.NullKeyword]: 'null',
};

function entityName(name) {
    return ts.isIdentifier(name) ? name.text : entityName(name.left) + '.' + name.right.text;
}

function type(node) {
    if (node.kind in KEYWORDS) return { k: 'kw', n: KEYWORDS[node.kind] };
    if (ts.isParenthesizedTypeNode(node)) return type(node.type);
    if (ts.isTypeReferenceNode(node)) {
        return { k: 'ref', n: entityName(node.typeName), args: (node.typeArguments || []).map(type) };
    }
    if (ts.isArrayTypeNode(node)) return { k: 'array', el: type(node.elementType), ro: false };
    if (ts.isTypeOperatorNode(node) && node.operator === ts.SyntaxKind.ReadonlyKeyword) {
        const inner = type(node.type);
        if (inner.k === 'array' || inner.k === 'tuple') inner.ro = true;
        return inner;
    }
    if (ts.isTupleTypeNode(node)) {
        return {
            k: 'tuple', ro: false,
            els: node.elements.map((element) => type(ts.isNamedTupleMember(element) ? element.type : element)),
        };
    }
    if (ts.isUnionTypeNode(node)) return { k: 'union', ts: node.types.map(type) };
    if (ts.isIntersectionTypeNode(node)) return { k: 'inter', ts: node.types.map(type) };
    if (ts.isLiteralTypeNode(node)) {
        const literal = node.literal;
        if (literal.kind === ts.SyntaxKind.NullKeyword) return { k: 'kw', n: 'null' };
        if (ts.isStringLiteral(literal)) return { k: 'lit', v: literal.text };
        if (ts.isNumericLiteral(literal)) return { k: 'lit', v: Number(literal.text) };
        if (literal.kind === ts.SyntaxKind.TrueKeyword) return { k: 'lit', v: true };
        if (literal.kind === ts.SyntaxKind.FalseKeyword) return { k: 'lit', v: false };
    }
    if (ts.isFunctionTypeNode(node) || ts.isConstructorTypeNode(node)) {
        return { k: 'fn', tps: typeParams(node), params: params(node), ret: type(node.type) };
    }
    if (ts.isTypeLiteralNode(node)) return { k: 'obj', members: members(node.members) };
    if (node.kind === ts.SyntaxKind.ThisType) return { k: 'this' };
    if (ts.isTypePredicateNode(node)) return { k: 'kw', n: 'boolean' };
    // keyof, typeof, indexed access, mapped, conditional and template literal types: no Python equivalent
    return { k: 'other', text: node.getText() };
}

function members(list) {
    const out = [];
    for (const member of list) {
        const common = { name: nameOf(member), opt: !!member.questionToken, static: has(member, ts.SyntaxKind.StaticKeyword) };
        if (ts.isPropertySignature(member) || ts.isPropertyDeclaration(member)) {
            out.push({ ...common, kind: 'prop', ro: has(member, ts.SyntaxKind.ReadonlyKeyword),
                       type: member.type ? type(member.type) : { k: 'kw', n: 'any' } });
        } else if (ts.isMethodSignature(member) || ts.isMethodDeclaration(member)) {
            out.push({ ...common, kind: 'method', tps: typeParams(member), params: params(member),
                       ret: member.type ? type(member.type) : { k: 'kw', n: 'any' } });
        } else if (ts.isConstructorDeclaration(member) || ts.isConstructSignatureDeclaration(member)) {
            out.push({ ...common, kind: 'ctor', params: params(member), private: has(member, ts.SyntaxKind.PrivateKeyword) });
        } else if (ts.isCallSignatureDeclaration(member)) {
            out.push({ ...common, kind: 'call', tps: typeParams(member), params: params(member),
                       ret: member.type ? type(member.type) : { k: 'kw', n: 'any' } });
        } else if (ts.isGetAccessor(member)) {
            out.push({ ...common, kind: 'prop', ro: true, type: member.type ? type(member.type) : { k: 'kw', n: 'any' } });
        } else if (ts.isSetAccessor(member)) {
            out.push({ ...common, kind: 'setter' });
        } else if (ts.isIndexSignatureDeclaration(member)) {
            out.push({ ...common, kind: 'index', key: type(member.parameters[0].type), type: type(member.type) });
        } else {
            out.push({ kind: 'unknown', text: member.getText().slice(0, 80) });
        }
    }
    return out;
}

function heritage(node, token) {
    const clause = (node.heritageClauses || []).find((c) => c.token === token);
    return clause ? clause.types.map((t) => ({ k: 'ref', n: entityName(t.expression), args: (t.typeArguments || []).map(type) })) : [];
}

function declarations(statements, namespace) {
    const out = [];
    for (const node of statements) {
        if (ts.isModuleDeclaration(node)) {
            const body = node.body;
            if (ts.isStringLiteral(node.name)) { // declare module 'vscode' { … }
                if (node.name.text === 'vscode' && body) out.push(...declarations(body.statements, null));
                continue;
            }
            out.push({ kind: 'namespace', name: node.name.text, members: body ? declarations(body.statements, node.name.text) : [] });
        } else if (ts.isClassDeclaration(node)) {
            out.push({ kind: 'class', name: node.name.text, tps: typeParams(node), bases: heritage(node, ts.SyntaxKind.ExtendsKeyword),
                       members: members(node.members) });
        } else if (ts.isInterfaceDeclaration(node)) {
            out.push({ kind: 'interface', name: node.name.text, tps: typeParams(node), bases: heritage(node, ts.SyntaxKind.ExtendsKeyword),
                       members: members(node.members) });
        } else if (ts.isEnumDeclaration(node)) {
            out.push({ kind: 'enum', name: node.name.text, members: node.members.map((member, index) => ({
                name: member.name.text,
                value: member.initializer ? (ts.isStringLiteral(member.initializer) ? member.initializer.text :
                    ts.isPrefixUnaryExpression(member.initializer) ? -Number(member.initializer.operand.text) :
                    Number(member.initializer.text)) : null,
            })) });
        } else if (ts.isTypeAliasDeclaration(node)) {
            out.push({ kind: 'alias', name: node.name.text, tps: typeParams(node), type: type(node.type) });
        } else if (ts.isFunctionDeclaration(node)) {
            out.push({ kind: 'function', name: node.name.text, tps: typeParams(node), params: params(node),
                       ret: node.type ? type(node.type) : { k: 'kw', n: 'any' } });
        } else if (ts.isVariableStatement(node)) {
            const constant = (node.declarationList.flags & ts.NodeFlags.Const) !== 0;
            for (const variable of node.declarationList.declarations) {
                out.push({ kind: 'var', name: variable.name.text, const: constant,
                           type: variable.type ? type(variable.type) : { k: 'kw', n: 'any' } });
            }
        } else if (node.kind !== ts.SyntaxKind.EmptyStatement) {
            out.push({ kind: 'unknown', text: node.getText().slice(0, 80) });
        }
    }
    return out;
}

const result = [];
for (const file of process.argv.slice(2)) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    result.push({ file: path.basename(file), declarations: declarations(source.statements, null) });
}
process.stdout.write(JSON.stringify(result));
