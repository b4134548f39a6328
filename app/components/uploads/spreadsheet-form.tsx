import { Button, Group, Input, Loader, Text, type InputWrapperProps } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { useNavigation } from "react-router";

/**
 * The file field of a spreadsheet upload: a native file input (it posts without JavaScript) taking
 * CSV or XLSX, its hint and error tied to it for assistive technology.
 */
export function SpreadsheetFileField({
  id,
  error,
  inputStyle,
  ...wrapper
}: { id: string; error?: string; inputStyle?: React.CSSProperties } & Pick<
  InputWrapperProps,
  "label" | "description" | "errorProps"
>) {
  return (
    <Input.Wrapper {...wrapper} error={error} required id={id}>
      <input
        id={id}
        type="file"
        name="file"
        required
        accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error ${id}-description` : `${id}-description`}
        style={{ display: "block", marginTop: 6, ...inputStyle }}
      />
    </Input.Wrapper>
  );
}

/** The upload's submit button, with a status line while a large file goes up. `keys` are translation keys. */
export function UploadButton({ keys }: { keys: { upload: string; uploading: string } }) {
  const { t } = useTranslation();
  const busy = useNavigation().state === "submitting";
  return (
    <Group>
      <Button type="submit" loading={busy}>
        {t(keys.upload)}
      </Button>
      {busy ? (
        <Group gap="xs" role="status">
          <Loader size="xs" />
          <Text size="sm">{t(keys.uploading)}</Text>
        </Group>
      ) : null}
    </Group>
  );
}
