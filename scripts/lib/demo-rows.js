// Waiting for what a demo job writes, read straight from the server's SQLite file.
import fs from "node:fs";
import Database from "better-sqlite3";

/**
 * The first row `sql` answers in the SQLite file once there is one (read-only, polled every 300 ms);
 * throws with the app's output when the app exits or `timeoutMs` passes. `what` names the awaited
 * rows in the error, e.g. "the demo menu (job food_demo_menu)".
 */
export async function waitForRow(file, app, sql, what, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (app.exitCode !== null) throw new Error(`server.js exited (code ${app.exitCode}):\n${app.log}`);
    if (fs.existsSync(file)) {
      const db = new Database(file, { readonly: true, fileMustExist: true });
      try {
        const row = db.prepare(sql).get();
        if (row) return row;
      } catch {
        // The tables are not there yet: the migrations are still running.
      } finally {
        db.close();
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`${what} was not made within ${timeoutMs / 1000} s:\n${app.log}`);
}
