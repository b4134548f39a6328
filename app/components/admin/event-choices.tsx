import { SimpleGrid, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { CheckboxChoice } from "~/components/choice";

/** The event types as checkboxes (`events`), shared by the new endpoint form and an endpoint's page. */
export function EventChoices({
  events,
  chosen,
  error,
}: {
  events: readonly string[];
  chosen: readonly string[];
  error?: string;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="plain-fieldset" aria-describedby={error ? "events-error" : undefined}>
      <legend className="choice-legend">{t("admin.webhooks.events")}</legend>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={6}>
        {events.map((event) => (
          <CheckboxChoice
            key={event}
            name="events"
            value={event}
            defaultChecked={chosen.includes(event)}
            label={
              <>
                {t(`admin.webhooks.event_names.${event.replace(".", "_")}`)}{" "}
                <Text span size="xs" c="dimmed" dir="ltr">
                  {event}
                </Text>
              </>
            }
          />
        ))}
      </SimpleGrid>
      {error ? (
        <Text id="events-error" size="sm" c="red" mt={4}>
          {error}
        </Text>
      ) : null}
    </fieldset>
  );
}
