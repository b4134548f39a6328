// Builds the app unless build/ was made from the source as it is now. The HTTP and end-to-end tests
// run the production build, so Vitest (globalSetup), the end-to-end servers and `npm test` call this
// first. `node scripts/ensure-build.js` does the same from the command line.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const inputs = [
  "app",
  "locales",
  "public",
  "vite.config.ts",
  "react-router.config.ts",
  "postcss.config.cjs",
  "tsconfig.json",
  "package-lock.json",
];
const serverEntry = path.join(root, "build/server/index.js");
const stamp = path.join(root, "build/.source-hash");

function filesUnder(relative) {
  const absolute = path.join(root, relative);
  if (!fs.existsSync(absolute)) return [];
  if (!fs.statSync(absolute).isDirectory()) return [relative];
  return (
    fs
      .readdirSync(absolute, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
      // Test files next to the code never reach the build; editing one should not rebuild it.
      .filter((file) => !/\.test\.tsx?$/.test(file))
  );
}

/** A hash of every file the build is made from, names included. */
export function sourceHash() {
  const hash = createHash("sha256");
  const files = inputs
    .flatMap(filesUnder)
    .map((file) => file.split(path.sep).join("/"))
    .sort();
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(path.join(root, file)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

/** Runs `react-router build` when build/ is missing or was made from other source; true when it built. */
export function ensureBuild() {
  const hash = sourceHash();
  if (fs.existsSync(serverEntry) && fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8").trim() === hash)
    return false;
  // A build that fails halfway must not keep an earlier stamp that the source might match again.
  fs.rmSync(stamp, { force: true });
  console.log("Building the app: build/ does not match the source.");
  const started = Date.now();
  const result = spawnSync(path.join(root, "node_modules/.bin/react-router"), ["build"], {
    cwd: root,
    encoding: "utf8",
    // Vitest sets NODE_ENV=test, which Vite would otherwise build with.
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0) {
    process.stdout.write(result.stdout ?? "");
    process.stderr.write(result.stderr ?? "");
    throw new Error(`react-router build failed (${result.error?.message ?? `exit code ${result.status}`})`);
  }
  fs.writeFileSync(stamp, `${hash}\n`);
  console.log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  return true;
}

/** Vitest's globalSetup: before any test file imports the build. */
export function setup() {
  ensureBuild();
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  try {
    if (!ensureBuild()) console.log("build/ matches the source.");
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
