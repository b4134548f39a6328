import { Button, Modal, Stack, Text } from "@mantine/core";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, useLocation, useNavigation } from "react-router";

/**
 * With JavaScript on: after the idle time without a request to the server, a modal that cannot be
 * dismissed says the session has expired; Ok ends it on the server and goes to login.
 * The server ends the session on its own at the same time either way.
 */
export function SessionExpiry({ lang, idleMs }: { lang: string; idleMs: number }) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigation = useNavigation();
  const [expired, setExpired] = useState(false);

  useEffect(() => {
    if (expired) return;
    const timer = setTimeout(() => setExpired(true), idleMs);
    return () => clearTimeout(timer);
  }, [location.key, navigation.state, idleMs, expired]);

  return (
    <Modal
      opened={expired}
      onClose={() => {}}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      centered
      title={t("session.expired_title")}
    >
      <Stack>
        <Text>{t("session.expired_message")}</Text>
        <Form method="post" action={`/${lang}/logout`} reloadDocument>
          <input type="hidden" name="reason" value="expired" />
          <Button type="submit" fullWidth>
            {t("session.ok")}
          </Button>
        </Form>
      </Stack>
    </Modal>
  );
}
