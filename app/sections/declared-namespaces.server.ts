import fs from "node:fs";
import path from "node:path";

/**
 * The text namespaces every section declares as its own (`namespaces` in its section.ts), read from
 * the declarations' source: vite.config.ts leaves them out of the browser's catalogue, and cannot
 * load the declarations themselves (bundling them would bundle their server part).
 * browser-catalogue.test.ts checks that this reading finds what the registry declares.
 */
export function declaredNamespaces(sectionsDir: string): string[] {
  return fs.readdirSync(sectionsDir).flatMap((folder) => {
    const file = path.join(sectionsDir, folder, "section.ts");
    if (!fs.existsSync(file)) return [];
    const declared = /^ {2}namespaces: (\{[^}]*\})/m.exec(fs.readFileSync(file, "utf8"))?.[1] ?? "";
    return [...declared.matchAll(/"([\w-]+)"/g)].map((match) => match[1]);
  });
}
