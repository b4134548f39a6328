import { createContext, RouterContextProvider } from "react-router";
import type { DB } from "~/db/database.server";
import type { SessionUser } from "~/domain/identity/users.server";

/** The caller's address as the HTTP server saw it (after TRUST_PROXY handling). */
export const clientAddressContext = createContext<string | null>(null);

export type Auth = { sessionId: string; sessionToken: string; user: SessionUser };
export const authContext = createContext<Auth | null>(null);

export const dbContext = createContext<DB | null>(null);

export function createLoadContext(input: { clientAddress: string | null }) {
  const context = new RouterContextProvider();
  context.set(clientAddressContext, input.clientAddress);
  return context;
}

export function getDbFrom(context: Readonly<RouterContextProvider>): DB {
  const db = context.get(dbContext);
  if (!db) throw new Error("The database is not in the request context");
  return db;
}
