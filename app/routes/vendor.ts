import fs from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { Route } from "./+types/vendor";
import { notFound } from "~/web/guards.server";

/** Third-party browser files served from their npm package (the map of the delivery step), versioned by name. */
const FILES: Record<string, { file: string; type: string }> = {
  "maplibre-gl-5.24.1.js": { file: "maplibre-gl/dist/maplibre-gl-csp.js", type: "text/javascript" },
  "maplibre-gl-worker-5.24.1.js": { file: "maplibre-gl/dist/maplibre-gl-csp-worker.js", type: "text/javascript" },
  "maplibre-gl-5.24.1.css": { file: "maplibre-gl/dist/maplibre-gl.css", type: "text/css" },
};

const requireFromHere = createRequire(import.meta.url);

export async function loader({ params }: Route.LoaderArgs) {
  const entry = FILES[params.file];
  if (!entry) notFound();
  const packageRoot = path.dirname(requireFromHere.resolve("maplibre-gl/package.json"));
  const body = await fs.readFile(path.join(packageRoot, "..", entry.file));
  return new Response(body, {
    headers: { "Content-Type": `${entry.type}; charset=utf-8`, "Cache-Control": "public, max-age=31536000, immutable" },
  });
}
