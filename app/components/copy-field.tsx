import { Button, Group, Text, TextInput } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";

/** A read-only value with a Copy button; without JavaScript the text is still there to select. Its "copied" line is a polite live region, not a status: the page's own status (the flash) stays the one status. */
export function CopyField({ label, value, description }: { label: string; value: string; description?: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(value);
    setCopied(true);
    setTimeout(() => setCopied(false), 2500);
  };
  return (
    <div>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TextInput
          label={label}
          description={description}
          value={value}
          readOnly
          onFocus={(event) => event.currentTarget.select()}
          style={{ flex: 1 }}
          dir="ltr"
        />
        <Button variant="light" onClick={copy}>
          {t("payment_request.copy")}
        </Button>
      </Group>
      <Text size="sm" c="green" aria-live="polite" mih={20} mt={4}>
        {copied ? t("payment_request.copied") : ""}
      </Text>
    </div>
  );
}
