import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [reactRouter()],
  resolve: {
    tsconfigPaths: true,
  },
  ssr: {
    external: ["better-sqlite3", "pg", "@node-rs/argon2", "nodemailer"],
  },
});
