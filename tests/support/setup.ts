import { wirePlatform } from "~/boot/wiring.server";

// Vitest puts Vite's BASE_URL ("/") into the environment; the app reads BASE_URL as its public address.
delete process.env.BASE_URL;

// Domain code reaches its words, the sections' hooks and the job handlers through ports the platform connects at start.
await wirePlatform();
