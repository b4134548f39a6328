import { Alert, Anchor, Button, Group, Paper, Stack, Table, Text, Textarea, TextInput, Title } from "@mantine/core";
import { useEffect, useRef, useState } from "react";
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
  /** What is available, written as money in the page's language. */
  availableText: string;
  /** Decimal places the amount may have. */
  decimals: number;
  /** Why this user cannot go on now (a request already waiting for approval), if so. */
  blocked: string | null;
  /** The duplicate payment this gives back, or null for the transaction's own payment. */
  attemptId?: string | null;
  /** What the confirmation repeats besides the amount and the order: who paid, what was paid and already refunded. */
  confirmation?: { customer: string | null; paid: string; refunded: string };
  /** Given, the confirmation takes an optional reason of at most this many characters. */
  reasonMaxLength?: number;
};

export type DialogResult =
  | { dialogError: string; amount?: string; reason?: string }
  | { review: { amount: string; formatted?: string }; reason?: string; reasonError?: string };

type Outcome = Partial<{
  review: { amount: string; formatted?: string };
  dialogError: string;
  amount: string;
  reason: string;
  reasonError: string;
}>;

/** Minor units of a typed amount with at most `decimals` places; null when it is not one. */
function minorOf(text: string, decimals: number): number | null {
  const match = /^\s*(\d{1,15})(?:[.](\d*))?\s*$/.exec(text);
  if (!match) return null;
  const fraction = match[2] ?? "";
  if (fraction.length > decimals) return null;
  return Number(match[1]) * 10 ** decimals + Number(fraction.padEnd(decimals, "0") || 0);
}

/**
 * The refund / capture / void dialog (dashboard spec §4–§5): the amount, defaulting to what is
 * available; then the locked amount repeated with the order and the customer, an optional reason,
 * 'Are you sure?' and Yes. Two plain forms, so it works without JavaScript; the server checks the
 * amount at both steps. With JavaScript, an error about an amount goes as soon as the amount is
 * changed to one that fits.
 */
export function OperationDialog({ dialog, result }: { dialog: OperationDialogData; result: unknown }) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigation = useNavigation();
  const close = `${location.pathname}${withParams(location.search, { operation: null, id: null, attempt: null })}`;
  const outcome = (result ?? {}) as Outcome;
  const review = outcome.review ?? null;
  const serverError = outcome.dialogError ?? null;
  const typed = typeof outcome.amount === "string" ? outcome.amount : undefined;
  const initial = review?.amount ?? typed ?? dialog.available;
  // The field stays the browser's: what was typed (even while an answer is on its way) is kept, and
  // an error is judged against it. Only the review locks in the amount the server checked.
  const field = useRef<HTMLInputElement>(null);
  const [value, setValue] = useState(initial);
  useEffect(() => {
    if (!field.current) return;
    if (review) field.current.value = review.amount;
    setValue(field.current.value);
  }, [review]);
  const error = (() => {
    // The server's word stands while the amount it was about is still there.
    if (serverError && (typed === undefined || value === typed)) return serverError;
    if (review || dialog.kind === "void" || value.trim() === "") return null;
    const minor = minorOf(value, dialog.decimals);
    if (minor === null || minor <= 0)
      return t(
        minor === null && /^\s*\d+[.]\d+\s*$/.test(value) ? "operations.errors.decimals" : "operations.errors.amount",
      );
    if (minor > dialog.availableMinor) return t("operations.errors.above_available");
    return null;
  })();
  const pattern = dialog.decimals > 0 ? `[0-9]+([.][0-9]{1,${dialog.decimals}})?` : "[0-9]+";
  const amountText = review?.formatted ?? `${review?.amount ?? ""} ${dialog.currency}`;
  return (
    <div className="dialog-backdrop">
      <Paper
        role="dialog"
        aria-modal="true"
        aria-labelledby="operation-title"
        withBorder
        shadow="xl"
        p="lg"
        className="dialog-card"
      >
        <Stack gap="sm">
          <Title order={2} fz="h4" id="operation-title">
            {t(dialog.attemptId ? `operations.title_duplicate.${dialog.kind}` : `operations.title.${dialog.kind}`, {
              orderNo: dialog.orderNo,
            })}
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
                <Text size="sm">{t("operations.available", { amount: dialog.availableText })}</Text>
                <TextInput
                  ref={field}
                  name="amount"
                  label={t("operations.amount", { currency: dialog.currency })}
                  defaultValue={initial}
                  onChange={(event) => setValue(event.currentTarget.value)}
                  readOnly={Boolean(review) || dialog.kind === "void"}
                  inputMode="decimal"
                  dir="ltr"
                  autoComplete="off"
                  pattern={pattern}
                  error={error ?? undefined}
                  errorProps={{ role: "alert" }}
                />
                {review ? (
                  <>
                    {dialog.confirmation ? (
                      <Table variant="vertical" layout="fixed" withTableBorder className="operation-summary">
                        <Table.Tbody>
                          <Table.Tr>
                            <Table.Th w={150}>{t(`operations.confirm.amount.${dialog.kind}`)}</Table.Th>
                            <Table.Td fw={700}>
                              <span dir="ltr">{amountText}</span>
                            </Table.Td>
                          </Table.Tr>
                          <Table.Tr>
                            <Table.Th>{t("operations.confirm.order")}</Table.Th>
                            <Table.Td>#{dialog.orderNo}</Table.Td>
                          </Table.Tr>
                          <Table.Tr>
                            <Table.Th>{t("operations.confirm.customer")}</Table.Th>
                            <Table.Td style={{ overflowWrap: "anywhere" }}>
                              {dialog.confirmation.customer ?? t("operations.confirm.no_customer")}
                            </Table.Td>
                          </Table.Tr>
                          <Table.Tr>
                            <Table.Th>{t("operations.confirm.paid")}</Table.Th>
                            <Table.Td>
                              <span dir="ltr">{dialog.confirmation.paid}</span>
                            </Table.Td>
                          </Table.Tr>
                          {dialog.kind === "refund" ? (
                            <Table.Tr>
                              <Table.Th>{t("operations.confirm.refunded")}</Table.Th>
                              <Table.Td>
                                <span dir="ltr">{dialog.confirmation.refunded}</span>
                              </Table.Td>
                            </Table.Tr>
                          ) : null}
                        </Table.Tbody>
                      </Table>
                    ) : null}
                    {dialog.reasonMaxLength ? (
                      <Textarea
                        name="reason"
                        label={t("operations.reason")}
                        description={t("operations.reason_help")}
                        defaultValue={outcome.reason ?? ""}
                        maxLength={dialog.reasonMaxLength}
                        autosize
                        minRows={2}
                        maxRows={5}
                        error={outcome.reasonError}
                      />
                    ) : null}
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
      <Paper
        role="dialog"
        aria-modal="true"
        aria-labelledby="done-title"
        withBorder
        shadow="xl"
        p="lg"
        className="dialog-card"
      >
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
export function ConfirmDialog({
  confirm,
}: {
  confirm: { action: string; id: string; orderNo: number; message: string };
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigation = useNavigation();
  const close = `${location.pathname}${withParams(location.search, { confirm: null, id: null })}`;
  return (
    <div className="dialog-backdrop">
      <Paper
        role="dialog"
        aria-modal="true"
        aria-labelledby="confirm-title"
        withBorder
        shadow="xl"
        p="lg"
        className="dialog-card"
      >
        <Stack gap="sm">
          <Title order={2} fz="h4" id="confirm-title">
            {t("transactions.confirm.title", { orderNo: confirm.orderNo })}
          </Title>
          <Text>{confirm.message}</Text>
          <Form method="post">
            <Group>
              <Button
                type="submit"
                name="row_command"
                value={`${confirm.action}:${confirm.id}`}
                color={confirm.action === "delete" || confirm.action === "cancel" ? "red" : undefined}
                loading={navigation.state === "submitting"}
              >
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
