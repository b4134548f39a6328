import { Alert, Button, Card, Group, Stack, Text, Title } from "@mantine/core";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useFetcher } from "react-router";

/** What this browser can do and has done about push notices; "unknown" until the page runs its script. */
type PushState = "unknown" | "unsupported" | "denied" | "on" | "off";

const WORKER_URL = "/sw.js";
/** Who turned push on in this browser: another user signing in here does not inherit it. */
const OWNER_KEY = "kp-push-owner";

/** The VAPID public key (URL-safe base64) as the bytes PushManager.subscribe takes. */
function keyBytes(base64: string) {
  const padded = (base64 + "=".repeat((4 - (base64.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
}

function supported() {
  return (
    typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window
  );
}

async function currentSubscription() {
  const registration = await navigator.serviceWorker.getRegistration(WORKER_URL);
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/**
 * Browser notifications for this browser (decision 0033): the user turns them on here, the browser
 * asks for their consent, and the subscription is stored for their account; the service worker
 * shows a notice only when no tab of the dashboard is in view. Push needs a script by nature:
 * without JavaScript the card says so.
 */
export function PushNotifications({ vapidPublicKey, username }: { vapidPublicKey: string; username: string }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<{ ok: boolean; message: string }>();
  const [state, setState] = useState<PushState>("unknown");
  const [failure, setFailure] = useState<string | null>(null);
  const [working, setWorking] = useState(false);

  useEffect(() => {
    if (!supported()) return setState("unsupported");
    if (Notification.permission === "denied") return setState("denied");
    void currentSubscription()
      .then(async (subscription) => {
        if (!subscription) return setState("off");
        if (localStorage.getItem(OWNER_KEY) !== username) {
          // Turned on by someone else who used this browser: not this user's consent.
          await subscription.unsubscribe();
          localStorage.removeItem(OWNER_KEY);
          return setState("off");
        }
        // Signing out forgot it on the server; this sign-in takes it again.
        fetcher.submit({ intent: "push_on", subscription: JSON.stringify(subscription.toJSON()) }, { method: "post" });
        setState("on");
      })
      .catch(() => setState("off"));
    // Once, when the page opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data && !fetcher.data.ok) setFailure(fetcher.data.message);
  }, [fetcher.state, fetcher.data]);

  const turnOn = async () => {
    setFailure(null);
    setWorking(true);
    try {
      if ((await Notification.requestPermission()) !== "granted") return setState("denied");
      const registration = await navigator.serviceWorker.register(WORKER_URL);
      await navigator.serviceWorker.ready;
      const subscription =
        (await registration.pushManager.getSubscription()) ??
        (await registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(vapidPublicKey),
        }));
      fetcher.submit({ intent: "push_on", subscription: JSON.stringify(subscription.toJSON()) }, { method: "post" });
      localStorage.setItem(OWNER_KEY, username);
      setState("on");
    } catch {
      setFailure(t("push.unsupported"));
    } finally {
      setWorking(false);
    }
  };

  const turnOff = async () => {
    setFailure(null);
    setWorking(true);
    try {
      const subscription = await currentSubscription();
      if (subscription) {
        fetcher.submit({ intent: "push_off", subscription: JSON.stringify(subscription.toJSON()) }, { method: "post" });
        await subscription.unsubscribe();
      }
      localStorage.removeItem(OWNER_KEY);
      setState("off");
    } finally {
      setWorking(false);
    }
  };

  const busy = working || fetcher.state !== "idle";
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t("push.title")}
        </Title>
        <Text size="sm" c="dimmed">
          {t("push.help")}
        </Text>
        {state === "unknown" ? <Text size="sm">{t("push.needs_js")}</Text> : null}
        {state === "unsupported" ? <Text size="sm">{t("push.unsupported")}</Text> : null}
        {state === "denied" ? (
          <Alert color="yellow" variant="light">
            {t("push.denied")}
          </Alert>
        ) : null}
        {state === "on" || state === "off" ? (
          <Text size="sm" role="status">
            {t(state === "on" ? "push.on" : "push.off")}
          </Text>
        ) : null}
        {failure ? (
          <Alert color="red" variant="light" role="alert">
            {failure}
          </Alert>
        ) : null}
        {state === "on" ? (
          <Group>
            <Button variant="default" loading={busy} onClick={() => void turnOff()}>
              {t("push.turn_off")}
            </Button>
          </Group>
        ) : null}
        {state === "off" || state === "denied" ? (
          <Group>
            <Button loading={busy} onClick={() => void turnOn()}>
              {t("push.turn_on")}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Card>
  );
}
