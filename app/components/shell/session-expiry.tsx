import { lazy, Suspense, useEffect, useState } from "react";
import { useLocation, useNavigation } from "react-router";

// Loaded only when the session has run out: most visits never need a dialog's code.
const SessionExpiredDialog = lazy(() => import("./session-expired-dialog"));

/**
 * With JavaScript on: after the idle time without a request to the server, a modal that cannot be
 * dismissed says the session has expired; Ok ends it on the server and goes to login.
 * The server ends the session on its own at the same time either way.
 */
export function SessionExpiry({ lang, idleMs }: { lang: string; idleMs: number }) {
  const location = useLocation();
  const navigation = useNavigation();
  const [expired, setExpired] = useState(false);

  useEffect(() => {
    if (expired) return;
    const timer = setTimeout(() => setExpired(true), idleMs);
    return () => clearTimeout(timer);
  }, [location.key, navigation.state, idleMs, expired]);

  return expired ? (
    <Suspense fallback={null}>
      <SessionExpiredDialog lang={lang} />
    </Suspense>
  ) : null;
}
