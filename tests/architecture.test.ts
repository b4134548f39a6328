import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import routes from "~/routes";
import { SECTIONS } from "~/sections/registry";

/**
 * The shape of the code (docs/architecture.md), checked over the source: contexts import each other
 * in no cycle, sections never import each other, the domain knows nothing above it, and one module
 * writes a transaction's state.
 */

const root = path.resolve(__dirname, "..");
const SECTION_KEYS = SECTIONS.map((section) => section.key);
const appDir = path.join(root, "app");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "+types" ? [] : sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

const files = sourceFiles(appDir);
const parsed = new Map(
  files.map((file) => [file, ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true)]),
);

function resolve(from: string, specifier: string): string | undefined {
  const base = specifier.startsWith("~/")
    ? path.join(appDir, specifier.slice(2))
    : specifier.startsWith(".")
      ? path.resolve(path.dirname(from), specifier)
      : undefined;
  if (!base) return undefined;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")])
    if (parsed.has(candidate)) return candidate;
  return undefined;
}

/** The modules a file needs at run time: type-only imports are left out, dynamic imports counted. */
function runtimeImports(file: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly && ts.isStringLiteral(node.moduleSpecifier)) {
      const bindings = node.importClause?.namedBindings;
      const onlyTypes =
        bindings &&
        ts.isNamedImports(bindings) &&
        !node.importClause?.name &&
        bindings.elements.length > 0 &&
        bindings.elements.every((element) => element.isTypeOnly);
      if (!onlyTypes) found.push(node.moduleSpecifier.text);
    } else if (
      ts.isExportDeclaration(node) &&
      !node.isTypeOnly &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(parsed.get(file)!);
  return found.map((specifier) => resolve(file, specifier)).filter((target): target is string => Boolean(target));
}

/**
 * domain/<context>, sections/<section>, or the top folder. The registry and the contract are the
 * sections' index, and each section's declaration (section.ts: plain data that imports only the
 * contract) belongs to the index: a section may read the registry without a cycle.
 */
function contextOf(file: string): string {
  const parts = path.relative(appDir, file).split(path.sep);
  if (parts[0] === "domain") return `domain/${parts[1]}`;
  if (parts[0] === "sections")
    return parts.length === 2 || (parts.length === 3 && parts[2] === "section.ts")
      ? "sections:index"
      : `sections/${parts[1]}`;
  return parts[0];
}

const edges = new Map<string, Set<string>>();
const fileEdges: [string, string][] = [];
for (const file of files) {
  for (const target of runtimeImports(file)) {
    fileEdges.push([file, target]);
    const from = contextOf(file);
    const to = contextOf(target);
    if (from === to) continue;
    if (!edges.has(from)) edges.set(from, new Set());
    edges.get(from)!.add(to);
  }
}

type RouteEntry = { file: string; children?: RouteEntry[] };
const routeFiles = (entries: RouteEntry[]): string[] =>
  entries.flatMap((entry) => [path.join(appDir, entry.file), ...routeFiles(entry.children ?? [])]);
/** The route modules: every file the route table (app/routes.ts) names, the sections' included. */
const ROUTE_MODULES = new Set(routeFiles(routes as RouteEntry[]));

/** Strongly connected groups of more than one context (Tarjan). */
function cycles(graph: Map<string, Set<string>>, keep: (node: string) => boolean): string[][] {
  const nodes = [...new Set([...graph.keys(), ...[...graph.values()].flatMap((set) => [...set])])].filter(keep);
  let index = 0;
  const indices = new Map<string, number>();
  const lows = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const connect = (node: string) => {
    indices.set(node, index);
    lows.set(node, index++);
    stack.push(node);
    for (const next of [...(graph.get(node) ?? [])].filter(keep)) {
      if (!indices.has(next)) {
        connect(next);
        lows.set(node, Math.min(lows.get(node)!, lows.get(next)!));
      } else if (stack.includes(next)) lows.set(node, Math.min(lows.get(node)!, indices.get(next)!));
    }
    if (lows.get(node) === indices.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        group.push(member);
      } while (member !== node);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const node of nodes) if (!indices.has(node)) connect(node);
  return found;
}

describe("the architecture", () => {
  it("reads the imports of the whole app", () => {
    expect(files.length).toBeGreaterThan(150);
    expect(edges.get("domain/payments")?.has("domain/audit")).toBe(true);
  });

  it("has no import cycle between app/domain contexts", () => {
    expect(cycles(edges, (node) => node.startsWith("domain/"))).toEqual([]);
  });

  it("has no module import itself back through others, a section's declaration loading its server part counted", () => {
    const graph = new Map<string, Set<string>>();
    for (const [from, to] of fileEdges) graph.set(from, (graph.get(from) ?? new Set()).add(to));
    const found = cycles(graph, () => true).map((group) => group.map((file) => path.relative(appDir, file)));
    // One section's own modules only: its declaration loads its server part, which reads the
    // declaration's settings fields (payment-request/settings.server.ts). Nothing outside its folder is in it.
    const withinOneSection = (group: string[]) =>
      group.every((file) => file.startsWith(group[0].split("/").slice(0, 2).join("/") + "/")) &&
      group[0].startsWith("sections/");
    expect(found.filter((group) => !withinOneSection(group))).toEqual([]);
    expect(
      fileEdges.some(([from, to]) => from.endsWith("payment-request/section.ts") && to.endsWith("section.server.ts")),
      "the declarations' server parts are imports like any other",
    ).toBe(true);
  });

  it("has no route module import another, nor a section import a file under app/routes", () => {
    expect(ROUTE_MODULES.size).toBeGreaterThan(100);
    const offending = fileEdges
      .filter(
        ([from, to]) =>
          (ROUTE_MODULES.has(from) && ROUTE_MODULES.has(to)) ||
          (contextOf(from).startsWith("sections") && contextOf(to) === "routes"),
      )
      .map(([from, to]) => [path.relative(appDir, from), path.relative(appDir, to)]);
    expect(offending).toEqual([]);
  });

  it("has no module register anything as a side effect of being imported: no call at a module's top level", () => {
    // What may run when imported, and why. The entries start the process; the others configure an object of their own.
    const allowed: Record<string, string> = {
      "entry.client.tsx": "the browser's entry: it starts hydration",
      "entry.server.tsx": "the server's entry: it provides the slots' modules, by name",
      "db/database.server.ts": "the Postgres driver's column parsers, set before any pool exists",
      "lib/metrics.server.ts": "the default collectors of the metrics registry it creates",
    };
    const calls = files.flatMap((file) =>
      parsed
        .get(file)!
        .statements.filter((statement) => ts.isExpressionStatement(statement))
        .map((statement) => `${path.relative(appDir, file)}: ${statement.getText().split("(")[0]}`),
    );
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.filter((call) => !(call.split(":")[0] in allowed))).toEqual([]);
    // Every allowance is still needed: one whose call is gone is taken off the list.
    expect(Object.keys(allowed).filter((file) => !calls.some((call) => call.startsWith(`${file}:`)))).toEqual([]);
  });

  it("keeps the HTTP glue knowing no section: app/web imports nothing of app/sections, not even a type", () => {
    const web = files.filter((file) => path.relative(appDir, file).startsWith("web/"));
    expect(web.length).toBeGreaterThan(0);
    const named = web.filter((file) =>
      /from\s+["'](~\/sections\/|\.\.\/sections\/)/.test(fs.readFileSync(file, "utf8")),
    );
    expect(named.map((file) => path.relative(appDir, file))).toEqual([]);
  });

  it("keeps the HTTP glue below start-up: app/web starts nothing and imports nothing of app/boot", () => {
    const upward = fileEdges
      .map(([from, to]) => [path.relative(appDir, from), path.relative(appDir, to)])
      .filter(([from, to]) => from.startsWith("web/") && to.startsWith("boot/"));
    expect(upward).toEqual([]);
  });

  it("keeps each section's declaration plain data: it imports nothing at run time but the contract", () => {
    const declarations = files.filter((file) => path.basename(file) === "section.ts");
    expect(declarations.length).toBeGreaterThan(0);
    for (const file of declarations) {
      const imports = runtimeImports(file)
        .map((target) => path.relative(appDir, target))
        .filter((target) => target !== "sections/contract.ts");
      // The server part is loaded lazily, when the platform starts.
      expect(
        imports.filter((target) => target !== path.relative(appDir, file).replace("section.ts", "section.server.ts")),
        path.relative(appDir, file),
      ).toEqual([]);
    }
  });

  it("has no section import another section", () => {
    const crossing = fileEdges
      .map(([from, to]) => [contextOf(from), contextOf(to)])
      .filter(([from, to]) => from.startsWith("sections/") && to.startsWith("sections/") && from !== to);
    expect(crossing).toEqual([]);
  });

  it("keeps the domain below the adapters: it imports no route, page, HTTP glue, presentation, section or start-up code", () => {
    const upward = fileEdges
      .filter(([from]) => contextOf(from).startsWith("domain/"))
      .map(([from, to]) => [path.relative(appDir, from), path.relative(appDir, to)])
      .filter(([, to]) => /^(routes|web|presentation|sections|boot|components)\//.test(to) || to === "root.tsx");
    expect(upward).toEqual([]);
  });

  it("keeps infrastructure and presentation below the adapters, and a section's domain with the core's", () => {
    const offending = fileEdges
      .map(([from, to]) => [path.relative(appDir, from), path.relative(appDir, to)])
      .filter(([from, to]) => {
        if (from.startsWith("lib/") || from.startsWith("db/"))
          return /^(domain|routes|web|presentation|sections|boot|components)\//.test(to);
        if (from.startsWith("presentation/")) return /^(routes|web|sections|boot)\//.test(to);
        if (/^sections\/[^/]+\/domain\//.test(from))
          return !/^(domain|lib|db)\//.test(to) && !to.startsWith(from.split("/").slice(0, 3).join("/"));
        return false;
      });
    expect(offending).toEqual([]);
  });

  it("keeps each gateway in its folder behind the gateway port: only the registry imports an adapter", () => {
    const reaching = fileEdges
      .map(([from, to]) => [path.relative(appDir, from), path.relative(appDir, to)])
      .filter(
        ([from, to]) =>
          /^domain\/payments\/gateways\/[^/]+\//.test(to) && from !== "domain/payments/gateways/registry.ts",
      )
      // A gateway's folder uses its own files; the platform's sandbox of it speaks its protocol.
      .filter(
        ([from, to]) =>
          !from.startsWith(to.split("/").slice(0, 4).join("/") + "/") &&
          !from.startsWith("domain/sandbox/") &&
          !from.startsWith("routes/sandbox/"),
      );
    expect(reaching).toEqual([]);
  });

  it("keeps HTTP statuses, translations and section names out of app/domain", () => {
    for (const file of files.filter((candidate) => contextOf(candidate).startsWith("domain/"))) {
      const text = fs.readFileSync(file, "utf8");
      const name = path.relative(root, file);
      expect(text, name).not.toMatch(/status: [2345]\d\d|\(\s*[45]\d\d\s*,/);
      expect(text, name).not.toMatch(/\btranslator\(/);
      expect(text, name).not.toMatch(/(plugin|section|sectionKey)\)? *[!=]==? *["'][a-z_]+["']/);
      // A section's key compared, assigned as a plugin or asked of the merchant's features in the core: its rules belong in its module.
      for (const section of SECTION_KEYS) {
        expect(text, `${name} names ${section}`).not.toMatch(
          new RegExp(`(===|!==|plugin:|hasFeature\\([^)]*,)\\s*["'\`]${section}["'\`]`),
        );
      }
    }
  });
});

describe("the payment core names no gateway", () => {
  /** Every kind a gateway has ever had; a new one joins the list with its folder under gateways/. */
  const KIND_NAMES = ["knet", "card", "mpgs", "cod"];
  // "cod" is also a transaction and attempt state: only compared with a gateway's kind is it the gateway.
  const ONLY_AS_KIND = new Set(["cod"]);
  const kindExpression = /(^|\.)(kind|gatewayKind|gateway_kind)$/;
  const comparisons = new Set([
    ts.SyntaxKind.EqualsEqualsEqualsToken,
    ts.SyntaxKind.ExclamationEqualsEqualsToken,
    ts.SyntaxKind.EqualsEqualsToken,
    ts.SyntaxKind.ExclamationEqualsToken,
  ]);

  /** Where a file in domain/payments (outside gateways/) compares, keys or names a kind of gateway. */
  function kindLiterals(source: ts.SourceFile): string[] {
    const found: string[] = [];
    const where = (node: ts.Node, text: string) =>
      found.push(
        `${path.relative(appDir, source.fileName)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} ${text}`,
      );
    const visit = (node: ts.Node) => {
      if (ts.isStringLiteralLike(node) && KIND_NAMES.includes(node.text)) {
        const parent = node.parent;
        const other =
          ts.isBinaryExpression(parent) && comparisons.has(parent.operatorToken.kind)
            ? parent.left === node
              ? parent.right
              : parent.left
            : ts.isCaseClause(parent)
              ? parent.parent.parent.expression
              : undefined;
        const againstKind = other !== undefined && kindExpression.test(other.getText(source));
        if (!ONLY_AS_KIND.has(node.text) || againstKind) where(node, node.getText(source));
      }
      // `{ knet: … }`, `GATEWAY_KINDS.knet`: a kind as a key.
      const name = ts.isPropertyAssignment(node) || ts.isPropertyAccessExpression(node) ? node.name : undefined;
      if (name && ts.isIdentifier(name) && KIND_NAMES.includes(name.text) && !ONLY_AS_KIND.has(name.text))
        where(name, name.text);
      ts.forEachChild(node, visit);
    };
    visit(source);
    return found;
  }

  it("finds a kind compared, keyed or named", () => {
    const probe = ts.createSourceFile(
      path.join(appDir, "domain/payments/probe.ts"),
      'if (gateway.kind === "cod" || kind !== "knet") use(GATEWAY_KINDS.card, { mpgs: 1 }, "card"); switch (row.kind) { case "cod": }',
      ts.ScriptTarget.Latest,
      true,
    );
    expect(kindLiterals(probe).map((entry) => entry.split(" ")[1])).toEqual([
      '"cod"',
      '"knet"',
      "card",
      "mpgs",
      '"card"',
      '"cod"',
    ]);
    const states = ts.createSourceFile(
      path.join(appDir, "domain/payments/probe.ts"),
      'const next = to === "cod" ? "cod" : state; const map = { cod: [] }; if (started.kind !== "redirect") {}',
      ts.ScriptTarget.Latest,
      true,
    );
    expect(kindLiterals(states)).toEqual([]);
  });

  it("in app/domain/payments outside gateways/: what a kind of gateway does is asked of the registry", () => {
    const core = files.filter((file) => {
      const relative = path.relative(appDir, file).split(path.sep).join("/");
      return relative.startsWith("domain/payments/") && !relative.startsWith("domain/payments/gateways/");
    });
    expect(core.length).toBeGreaterThan(10);
    expect(core.flatMap((file) => kindLiterals(parsed.get(file)!))).toEqual([]);
  });
});

describe("the sandboxes", () => {
  it("are closed in production: every sandbox page and endpoint checks the mode before anything else", () => {
    const handlers = files.filter(
      (file) =>
        file.includes(`${path.sep}routes${path.sep}sandbox${path.sep}`) &&
        /export (async function|const) (loader|action)\b/.test(fs.readFileSync(file, "utf8")),
    );
    expect(handlers.length).toBeGreaterThan(5);
    for (const file of handlers) {
      const source = fs.readFileSync(file, "utf8");
      expect(source.includes("requireSandbox()"), path.relative(root, file)).toBe(true);
    }
  });
});

describe("one writer of a transaction's state", () => {
  /** Files that write `state` into the transactions table through Kysely or in SQL text. */
  function stateWriters(): string[] {
    const writers = new Set<string>();
    for (const [file, source] of parsed) {
      const visit = (node: ts.Node) => {
        if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
          const method = node.expression.name.text;
          const chain = node.expression.expression.getText(source);
          const onTransactions = /(updateTable|insertInto)\(\s*"transactions"\s*\)/.test(chain);
          if (onTransactions && (method === "set" || method === "values")) {
            const argument = node.arguments[0];
            const text = argument?.getText(source) ?? "";
            if (/(^|[\s{,])state\s*[:,}]/.test(text)) writers.add(path.relative(appDir, file));
          }
        }
        if (
          (ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node) || ts.isStringLiteral(node)) &&
          /update\s+transactions\s+set[\s\S]*\bstate\s*=/i.test(node.getText(source))
        ) {
          writers.add(path.relative(appDir, file));
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    return [...writers].filter((file) => !file.startsWith("db/migrations/"));
  }

  it("is domain/payments/transaction-state.server.ts, which both creates and moves transactions", () => {
    expect(stateWriters()).toEqual(["domain/payments/transaction-state.server.ts"]);
  });
});
