import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";

export type ServerProcess = { url: string; child: ChildProcess; output: string[] };

export async function freePort() {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * The production server (server.js) in a process of its own, answering /healthz: for tests that
 * need a second process on the same database, or a mode the test process itself does not run.
 * `env` is laid over the test's environment and the production defaults.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const output: string[] = [];
  const child = spawn(process.execPath, ["server.js"], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      NODE_ENV: "production",
      WORKER: "off",
      TEST_CLOCK: "1",
      SEED_DEMO: "0",
      ...env,
      PORT: String(port),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk) => output.push(String(chunk)));
  child.stderr!.on("data", (chunk) => output.push(String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited: ${output.join("")}`);
    if (
      await fetch(`${url}/healthz`).then(
        (response) => response.ok,
        () => false,
      )
    )
      return { url, child, output };
    if (Date.now() > deadline) throw new Error(`The server did not start: ${output.join("")}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
