import { Alert, Anchor, Button, Group, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Form, Link, useLocation, useNavigation } from "react-router";
import { withParams } from "~/domain/transactions/filters";

export type OperationDialogData = {
  id: string;
  kind: "refund" | "capture" | "void";
  orderNo: number;
  currency: string;
  available: string;
  availableMinor: number;
  /** Decimal places the amount may have. */
  decimals: number;
  /** Why this user cannot go on now (a request already waiting for approval), if so. */
  blocked: string | null;
  /** The duplicate payment this gives back, or null for the transaction's own payment. */
  attemptId?: string | null;
};

export type DialogResult = { dialogError: string; amount?: string } | { review: { amount: string } };

/**
 * The refund / capture / void dialog (dashboard spec §4–§5): the amount, defaulting to what is
 * available; then the locked amount, 'Are you sure?' and Yes. Two plain forms, so it works without
 * JavaScript; the server checks the amount at both steps.
 */
export function OperationDialog({ dialog, result }: { dialog: OperationDialogData; result: unknown }) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigation = useNavigation();
  const close = `${location.pathname}${withParams(location.search, { operation: null, id: null, attempt: null })}`;
  const outcome = (result ?? {}) as Partial<{ review: { amount: string }; dialogError: string; amount: string }>;
  const review = outcome.review ?? null;
  const error = outcome.dialogError ?? null;
  const typed = typeof outcome.amount === "string" ? outcome.amount : undefined;
  const pattern = dialog.decimals > 0 ? `[0-9]+([.][0-9]{1,${dialog.decimals}})?` : "[0-9]+";
  return (
    <div className="dialog-backdrop">
      <Paper role="dialog" aria-modal="true" aria-labelledby="operation-title" withBorder shadow="xl" p="lg" className="dialog-card">
        <Stack gap="sm">
          <Title order={2} fz="h4" id="operation-title">
            {t(dialog.attemptId ? `operations.title_duplicate.${dialog.kind}` : `operations.title.${dialog.kind}`, { orderNo: dialog.orderNo })}
          </Title>
          {dialog.availableMinor <= 0 || dialog.blocked ? (
            <>
              <Alert color="red" role="alert">
                {dialog.blocked ?? t("operations.errors.not_available")}
              </Alert>
              <Group justify="flex-end">
                <Anchor component={Link} to={close}>
                  {t("operations.cancel")}
                </Anchor>
              </Group>
            </>
          ) : (
            <Form method="post">
              <input type="hidden" name="intent" value="operation" />
              <input type="hidden" name="id" value={dialog.id} />
              <input type="hidden" name="kind" value={dialog.kind} />
              {dialog.attemptId ? <input type="hidden" name="attempt" value={dialog.attemptId} /> : null}
              <input type="hidden" name="step" value={review ? "confirm" : "review"} />
              <Stack gap="sm">
                <Text size="sm">
                  {t("operations.available", { amount: `${dialog.available} ${dialog.currency}` })}
                </Text>
                <TextInput
                  name="amount"
                  label={t("operations.amount", { currency: dialog.currency })}
                  defaultValue={review?.amount ?? typed ?? dialog.available}
                  readOnly={Boolean(review) || dialog.kind === "void"}
                  inputMode="decimal"
                  dir="ltr"
                  autoComplete="off"
                  pattern={pattern}
                  error={error ?? undefined}
                />
                {review ? (
                  <>
                    <Text fw={600}>{t("operations.are_you_sure")}</Text>
                    <Group>
                      <Button type="submit" color="red" loading={navigation.state === "submitting"}>
                        {t("operations.yes")}
                      </Button>
                      <Anchor component={Link} to={close}>
                        {t("operations.cancel")}
                      </Anchor>
                    </Group>
                  </>
                ) : (
                  <Group>
                    <Button type="submit">{t(`actions.${dialog.kind}`)}</Button>
                    <Anchor component={Link} to={close}>
                      {t("operations.cancel")}
                    </Anchor>
                  </Group>
                )}
              </Stack>
            </Form>
          )}
        </Stack>
      </Paper>
    </div>
  );
}

export function DoneDialog({ done }: { done: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <div className="dialog-backdrop">
      <Paper role="dialog" aria-modal="true" aria-labelledby="done-title" withBorder shadow="xl" p="lg" className="dialog-card">
        <Stack gap="sm">
          <Title order={2} fz="h4" id="done-title" c={done === "checking" ? "orange.8" : "green.8"}>
            {t(done === "checking" ? "operations.checking_title" : "operations.success_title")}
          </Title>
          <Text>{t(`operations.success.${done}`)}</Text>
          <Group justify="flex-end">
            <Button component={Link} to={`${location.pathname}${withParams(location.search, { done: null })}`}>
              {t("operations.ok")}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </div>
  );
}


/**
 * Asks before a row action that is not an operation (resend email or SMS, cancel, delete,
 * restore): a link opened it, Yes posts the row's command, No goes back to the list.
 */
export function ConfirmDialog({ confirm }: { confirm: { action: string; id: string; orderNo: number; message: string } }) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigation = useNavigation();
  const close = `${location.pathname}${withParams(location.search, { confirm: null, id: null })}`;
  return (
    <div className="dialog-backdrop">
      <Paper role="dialog" aria-modal="true" aria-labelledby="confirm-title" withBorder shadow="xl" p="lg" className="dialog-card">
        <Stack gap="sm">
          <Title order={2} fz="h4" id="confirm-title">
            {t("transactions.confirm.title", { orderNo: confirm.orderNo })}
          </Title>
          <Text>{confirm.message}</Text>
          <Form method="post">
            <Group>
              <Button type="submit" name="row_command" value={`${confirm.action}:${confirm.id}`} color={confirm.action === "delete" || confirm.action === "cancel" ? "red" : undefined} loading={navigation.state === "submitting"}>
                {t("operations.yes")}
              </Button>
              <Anchor component={Link} to={close}>
                {t("transactions.confirm.no")}
              </Anchor>
            </Group>
          </Form>
        </Stack>
      </Paper>
    </div>
  );
}
