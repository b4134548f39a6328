// `npm run merchant:create -- --name "Al Noor Pharmacy" --admin-email owner@alnoor.example` makes a
// merchant on this installation (the database the app uses: DATABASE_URL, else SQLITE_PATH, else
// ./data/platform.sqlite) with its first superuser, who is sent an invitation to choose a password
// (sent by the running platform's worker, or kept in the mailbox without SMTP).
// Flags: --name (required), --title-en, --title-ar (default: the name), --admin-email (required),
// --admin-username (default: the part of the e-mail before @), --sections payment_request,ticket
// (default: none; the merchant installs them in the administration panel), --lang en|ar (of the
// invitation), --base-url (of the link; default BASE_URL or http://localhost:PORT).
import { parseArgs } from "node:util";
import { loadApp } from "./lib/volume.js";

const { values } = parseArgs({
  options: {
    name: { type: "string" },
    "title-en": { type: "string" },
    "title-ar": { type: "string" },
    "admin-email": { type: "string" },
    "admin-username": { type: "string" },
    sections: { type: "string", default: "" },
    lang: { type: "string", default: "en" },
    "base-url": { type: "string" },
  },
});

function usage(message) {
  console.error(
    `${message}\nUsage: npm run merchant:create -- --name <name> --admin-email <e-mail> [--admin-username u] [--title-en t] [--title-ar t] [--sections a,b] [--lang en|ar] [--base-url https://…]`,
  );
  process.exit(2);
}

if (!values.name || !values["admin-email"]) usage("--name and --admin-email are required.");
if (values.lang !== "en" && values.lang !== "ar") usage("--lang is en or ar.");

const app = await loadApp();
try {
  const { createDatabase } = app.database;
  const { env } = await app.load("/app/lib/env.server.ts");
  const { wirePlatform } = await app.load("/app/boot/wiring.server.ts");
  const { checkNewMerchant, createMerchantWithAdmin } = await app.load("/app/domain/identity/onboarding.server.ts");
  const { MENU_SECTIONS } = await app.load("/app/sections/registry.ts");
  const config = env();
  const db = createDatabase({ databaseUrl: config.DATABASE_URL, sqlitePath: config.SQLITE_PATH });
  await app.migrate.migrateToLatest(db);
  await wirePlatform();
  const wanted = values.sections
    .split(",")
    .map((key) => key.trim())
    .filter(Boolean);
  const unknown = wanted.filter((key) => !MENU_SECTIONS.some((section) => section.key === key));
  if (unknown.length)
    usage(
      `Unknown sections: ${unknown.join(", ")}. Built sections: ${MENU_SECTIONS.map((section) => section.key).join(", ")}.`,
    );
  const email = values["admin-email"].trim();
  const checked = checkNewMerchant({
    name: values.name,
    title_en: values["title-en"],
    title_ar: values["title-ar"],
    admin_username: values["admin-username"] ?? email.split("@")[0],
    admin_email: email,
  });
  const problems = Object.entries(checked.errors);
  if (problems.length) usage(problems.map(([field, keys]) => `${field}: ${keys.join(", ")}`).join("\n"));
  const created = await createMerchantWithAdmin(db, {
    ...checked.value,
    sections: MENU_SECTIONS.filter((section) => wanted.includes(section.key)).map((section) => ({
      key: section.key,
      features: section.features.map((feature) => feature.key),
    })),
    actor: "system",
    baseUrl: (values["base-url"] ?? config.BASE_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, ""),
    lang: values.lang,
  });
  if (!created.ok) usage(`Refused: ${created.code}${created.field ? ` (${created.field})` : ""}`);
  console.log(
    `Merchant ${created.merchantId} "${checked.value.name}" created; ${checked.value.adminUsername} <${checked.value.adminEmail}> was invited to choose a password.`,
  );
  await db.destroy();
} catch (error) {
  console.error(`merchant:create failed: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
} finally {
  await app.close();
}
