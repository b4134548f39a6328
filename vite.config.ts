import { promisify } from "node:util";
import path from "node:path";
import fs from "node:fs/promises";
import zlib from "node:zlib";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Plugin } from "vite";
import { PAGE_NAMESPACES, SERVER_ONLY_NAMESPACES } from "./app/lib/i18n.ts";
import { declaredNamespaces } from "./app/sections/declared-namespaces.server.ts";

/**
 * The browser translates with app/lib/browser-i18n.tsx instead of i18next and react-i18next, which
 * the server keeps (docs/decisions/0020): the pages use nothing of them but keys and `{{values}}`.
 */
function browserTranslations(): Plugin {
  const replacement = path.resolve(import.meta.dirname, "app/lib/browser-i18n.tsx");
  return {
    name: "kuwait-pay:browser-translations",
    enforce: "pre",
    resolveId(source, _importer, options) {
      if (options?.ssr) return null;
      return source === "i18next" || source === "react-i18next" ? replacement : null;
    },
  };
}

/**
 * The browser's catalogues, without the namespaces only the server writes out or only some pages
 * bring with them: the platform's (app/lib/i18n.ts) and each section's (its section.ts `namespaces`).
 */
function browserCatalogues(): Plugin {
  const leftOut = [
    ...SERVER_ONLY_NAMESPACES,
    ...Object.values(PAGE_NAMESPACES).flat(),
    ...declaredNamespaces(path.resolve(import.meta.dirname, "app/sections")),
  ];
  return {
    name: "kuwait-pay:browser-catalogues",
    enforce: "pre",
    transform(code, id, options) {
      if (options?.ssr || !/[\\/]locales[\\/][a-z]{2}[\\/]common\.json$/.test(id)) return null;
      const catalogue = JSON.parse(code) as Record<string, unknown>;
      for (const namespace of leftOut) delete catalogue[namespace];
      return { code: JSON.stringify(catalogue), map: null };
    },
  };
}

/**
 * Two of Mantine's modules import more than they use here (app/lib/mantine-slim.ts): in the client
 * build, those imports (and only from those modules) get the part alone.
 */
function slimMantineImports(): Plugin {
  const replacement = path.resolve(import.meta.dirname, "app/lib/mantine-slim.ts");
  return {
    name: "kuwait-pay:slim-mantine-imports",
    enforce: "pre",
    resolveId(source, importer, options) {
      if (options?.ssr || !importer) return null;
      const from = importer.replaceAll("\\", "/");
      if (source === "@floating-ui/react" && from.includes("/@mantine/core/esm/components/ScrollArea/"))
        return replacement;
      if (
        source === "../ScrollArea/ScrollArea.mjs" &&
        from.endsWith("/@mantine/core/esm/components/Table/TableScrollContainer.mjs")
      )
        return replacement;
      return null;
    },
  };
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes a Brotli (best quality) and a gzip copy beside every script and stylesheet of the client
 * build; server.js sends them as they are, so each is compressed once at build time, smaller than
 * compressing on every request could afford.
 */
function precompressAssets(): Plugin {
  let clientBuild = false;
  return {
    name: "kuwait-pay:precompress-assets",
    apply: "build",
    configResolved(config) {
      clientBuild = !config.build.ssr;
    },
    async writeBundle(output, bundle) {
      if (!clientBuild || !output.dir) return;
      const files = Object.keys(bundle).filter((name) => /\.(js|css|svg|json)$/.test(name));
      await Promise.all(
        files.map(async (name) => {
          const file = path.join(output.dir!, name);
          const content = await fs.readFile(file);
          const params = {
            [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          };
          // Small files too (a page loads dozens of them), as long as the copy is smaller.
          const [br, gz] = await Promise.all([brotli(content, { params }), gzip(content, { level: 9 })]);
          if (br.length < content.length) await fs.writeFile(`${file}.br`, br);
          if (gz.length < content.length) await fs.writeFile(`${file}.gz`, gz);
        }),
      );
    },
  };
}

export default defineConfig({
  plugins: [browserTranslations(), browserCatalogues(), slimMantineImports(), reactRouter(), precompressAssets()],
  resolve: {
    tsconfigPaths: true,
  },
  ssr: {
    external: ["better-sqlite3", "pg", "@node-rs/argon2", "nodemailer"],
  },
});
