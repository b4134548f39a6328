import { Alert, Button, Group } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Form, useNavigation } from "react-router";

type Decision = "approve" | "reject" | "cancel";

const COLORS: Record<Decision, string> = { approve: "green", reject: "red", cancel: "gray" };

/**
 * Approve / Reject / Cancel as plain POST forms; the page's action decides with the `intent`.
 * With `confirmApprove`, Approve first opens the page's confirmation step (a GET of ?confirm=approve):
 * money moves only after it.
 */
export function DecisionButtons({
  decisions,
  confirmApprove = false,
}: {
  decisions: Decision[];
  confirmApprove?: boolean;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  if (!decisions.length) return null;
  return (
    <Group gap="sm">
      {decisions.map((decision) =>
        decision === "approve" && confirmApprove ? (
          <Form method="get" key={decision}>
            <input type="hidden" name="confirm" value="approve" />
            <Button type="submit" color={COLORS.approve} disabled={busy}>
              {t("tickets.decisions.approve")}
            </Button>
          </Form>
        ) : (
          <Form method="post" key={decision}>
            <Button
              type="submit"
              name="intent"
              value={decision}
              color={COLORS[decision]}
              variant={decision === "cancel" ? "default" : "filled"}
              disabled={busy}
              loading={busy && navigation.formData?.get("intent") === decision}
            >
              {t(`tickets.decisions.${decision}`)}
            </Button>
          </Form>
        ),
      )}
    </Group>
  );
}

/** What the last decision did: green when it went through, red when it did not. */
export function DecisionOutcome({ result }: { result: { done: string } | { error: string } | undefined }) {
  if (!result) return null;
  if ("done" in result) {
    return (
      <Alert color="green" variant="light" role="status">
        {result.done}
      </Alert>
    );
  }
  return (
    <Alert color="red" variant="light" role="alert">
      {result.error}
    </Alert>
  );
}
