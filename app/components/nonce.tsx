import { createContext, useContext } from "react";

const NonceContext = createContext<string | undefined>(undefined);

export const NonceProvider = NonceContext.Provider;

/** The CSP nonce of this response on the server; browsers hide it from scripts, so it is empty after hydration. */
export function useNonce() {
  return useContext(NonceContext);
}
