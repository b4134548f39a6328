import "@mantine/core/styles.css";
import { Box, Center, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { FlashNotice } from "./flash-notice";
import { LanguageSwitch } from "./language-switch";

/** The frame of the signed-out pages: product name, language switch, one card. */
export function AuthCard({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: string;
  children: React.ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Center mih="100vh" p="md" component="main">
      <Box w="100%" maw={420}>
        <Group justify="space-between" mb="lg">
          <Group gap={8}>
            <Box w={28} h={28} bg="brand.6" style={{ borderRadius: 8 }} aria-hidden />
            <Text fw={700}>{t("app.name")}</Text>
          </Group>
          <LanguageSwitch />
        </Group>
        <Paper withBorder shadow="sm" p="xl" radius="lg">
          <Stack gap="md">
            <div>
              <Title order={1} fz="h2">
                {title}
              </Title>
              {subtitle ? (
                <Text c="dimmed" size="sm" mt={4}>
                  {subtitle}
                </Text>
              ) : null}
            </div>
            <FlashNotice />
            {children}
          </Stack>
        </Paper>
      </Box>
    </Center>
  );
}
