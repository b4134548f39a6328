import { Anchor, Center, Paper, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { languageOfPath } from "~/lib/i18n";

export function ErrorPage({ status, title, message }: { status: number; title: string; message?: string }) {
  const { t } = useTranslation();
  const lang = languageOfPath(useLocation().pathname);
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" maw={460} w="100%" component="main">
        <Stack align="center" gap="sm" ta="center">
          <Text fz={56} fw={800} c="brand.6" lh={1} aria-hidden>
            {status}
          </Text>
          <Title order={1} fz="h2">
            {title}
          </Title>
          {message ? <Text c="dimmed">{message}</Text> : null}
          <Anchor href={`/${lang}`}>{t("errors.back_home")}</Anchor>
        </Stack>
      </Paper>
    </Center>
  );
}
