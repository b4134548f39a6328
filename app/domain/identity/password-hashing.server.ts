import { hash, verify } from "@node-rs/argon2";

// algorithm 2 is Argon2id (the package exports it as a const enum, which isolated modules cannot read).
const options = { algorithm: 2 as const, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  // No password yet (an invitation not accepted, an API key's user): as slow as a real check, and false.
  if (!passwordHash.startsWith("$")) {
    await verifyAgainstDummy(password);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/** Spends the same time as a real check, so an unknown username cannot be told apart by timing. */
export async function verifyAgainstDummy(password: string) {
  dummyHash ??= hashPassword("not-a-real-password-Zz9!");
  await verifyPassword(await dummyHash, password);
}
