import { wirePlatform } from "~/boot/wiring.server";

// Vitest puts Vite's BASE_URL ("/") into the environment; the app reads BASE_URL as its public address.
delete process.env.BASE_URL;

// One sealing key for the test process, its in-process servers and the server processes it starts
// (which inherit the environment), whatever database file each test uses.
process.env.CREDENTIALS_KEY ??= "test-only-credentials-key-0123456789abcdef";

// Domain code reaches its words, the sections' hooks and the job handlers through ports the platform connects at start.
await wirePlatform();
