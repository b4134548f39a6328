/** A message of the live channel, as the server sends it (decision 0033). */
export type LiveEvent = {
  id: number;
  merchant_id: number;
  type: string;
  data: Record<string, unknown>;
  created_at: string;
};

const URL_PATH = "/api/v1/notifications/live";
/** Where the last position is kept, so a page loaded anew resumes where the last one stopped. */
const POSITION_KEY = "kp-live-position";

/**
 * The user's live channel through EventSource: it reconnects by itself, sending the id of the last
 * message it had (Last-Event-ID); a page loaded anew passes the one its predecessor had. Closed while
 * the tab is hidden for long or the user idle past the session's time (the channel never keeps a
 * session alive, and an ended session closes it from the server's side: 401, no more reconnects).
 */
export function openLiveChannel(options: {
  onMessage: (event: LiveEvent) => void;
  onState: (open: boolean) => void;
  idleMs: number;
}) {
  if (typeof EventSource === "undefined") return { close() {} };
  let source: EventSource | null = null;
  let lastActivity = Date.now();
  let retry: ReturnType<typeof setTimeout> | undefined;

  const connect = () => {
    if (source) return;
    let position: string | null = null;
    try {
      position = sessionStorage.getItem(POSITION_KEY);
    } catch {
      // Storage refused (a private window): the channel starts from now.
    }
    const url = position ? `${URL_PATH}?last_event_id=${encodeURIComponent(position)}` : URL_PATH;
    const opened = new EventSource(url);
    source = opened;
    opened.onopen = () => options.onState(true);
    opened.onmessage = (message) => {
      try {
        if (message.lastEventId) sessionStorage.setItem(POSITION_KEY, message.lastEventId);
      } catch {
        // As above.
      }
      try {
        options.onMessage(JSON.parse(message.data) as LiveEvent);
      } catch {
        // A message this page cannot read is skipped.
      }
    };
    opened.onerror = () => {
      options.onState(false);
      // Refused (signed out) or given up: open again later, which a signed-out page will not need.
      if (opened.readyState === EventSource.CLOSED) {
        source = null;
        clearTimeout(retry);
        retry = setTimeout(() => Date.now() - lastActivity < options.idleMs && connect(), 15_000);
      }
    };
  };

  const disconnect = () => {
    source?.close();
    source = null;
    options.onState(false);
  };

  const onActivity = () => {
    lastActivity = Date.now();
    if (!source && !document.hidden) connect();
  };
  const idleCheck = setInterval(() => {
    if (source && Date.now() - lastActivity > options.idleMs) disconnect();
  }, 30_000);
  const onVisibility = () => (document.hidden ? undefined : onActivity());
  for (const type of ["pointerdown", "keydown"] as const) window.addEventListener(type, onActivity, { passive: true });
  document.addEventListener("visibilitychange", onVisibility);
  connect();

  return {
    close() {
      clearInterval(idleCheck);
      clearTimeout(retry);
      for (const type of ["pointerdown", "keydown"] as const) window.removeEventListener(type, onActivity);
      document.removeEventListener("visibilitychange", onVisibility);
      source?.close();
      source = null;
    },
  };
}
