import "@mantine/core/styles.css";
import { Alert, Badge, Box, Center, Group, Paper, Stack, Text, Title } from "@mantine/core";

const SANDBOX_NOTICE = { en: "Sandbox: no real money moves", ar: "بيئة تجريبية: لا تنتقل أموال حقيقية" };

/**
 * The frame of a sandbox gateway's page. It stands for another company's site, so it carries its
 * own name and language (KNET's langid), not the platform's shell.
 */
export function SandboxFrame(props: {
  gateway: string;
  lang: "en" | "ar";
  title: string;
  tone?: "error";
  children: React.ReactNode;
}) {
  return (
    <Center mih="100vh" p="md" component="main" bg="gray.1">
      <Box w="100%" maw={440} dir={props.lang === "ar" ? "rtl" : "ltr"} lang={props.lang}>
        <Paper withBorder shadow="sm" p="xl" radius="md">
          <Stack gap="md">
            <Group justify="space-between" wrap="nowrap">
              <Text fw={800} fz="lg">
                {props.gateway}
              </Text>
              <Badge color="orange" variant="light">
                {SANDBOX_NOTICE[props.lang]}
              </Badge>
            </Group>
            <Title order={1} fz="h3">
              {props.title}
            </Title>
            {props.tone === "error" ? (
              <Alert color="red" variant="light" role="alert">
                {props.children}
              </Alert>
            ) : (
              props.children
            )}
          </Stack>
        </Paper>
      </Box>
    </Center>
  );
}
