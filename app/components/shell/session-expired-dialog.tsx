import { Button, Modal, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Form } from "react-router";

/** The dialog that cannot be dismissed: Ok ends the session on the server and goes to login. */
export default function SessionExpiredDialog({ lang }: { lang: string }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened
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
