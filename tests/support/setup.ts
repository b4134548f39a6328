// Vitest puts Vite's BASE_URL ("/") into the environment; the app reads BASE_URL as its public address.
delete process.env.BASE_URL;
