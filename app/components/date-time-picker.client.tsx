// Mantine's date-time picker and its styles, loaded only by pages with a date-time field (lazy
// import from forms.tsx); without JavaScript those pages keep the native datetime-local input.
import "@mantine/core/styles/Popover.css";
import "@mantine/core/styles/ActionIcon.css";
import "@mantine/dates/styles.css";
import { DatesProvider, DateTimePicker } from "@mantine/dates";
import "dayjs/locale/ar";
import { useState } from "react";
import { IconCalendar } from "@tabler/icons-react";

/** "YYYY-MM-DD HH:mm:ss" now on Kuwait's clock (the picker's values are wall-clock times of Kuwait). */
function kuwaitNow() {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", {
      timeZone: "Asia/Kuwait",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(new Date())
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:00`;
}

/** A datetime-local value ("YYYY-MM-DDTHH:mm") as the picker's, and back. */
const toPicker = (value: string) =>
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) ? `${value.slice(0, 10)} ${value.slice(11, 16)}:00` : null;
const toLocal = (value: string | null) => (value ? `${value.slice(0, 10)}T${value.slice(11, 16)}` : "");

export default function KuwaitDateTimePicker(props: {
  id: string;
  name: string;
  label: string;
  description?: string;
  defaultValue?: string;
  error?: string;
  errorId: string;
  lang: "en" | "ar";
  clearLabel: string;
}) {
  const [value, setValue] = useState<string | null>(toPicker(props.defaultValue ?? ""));
  return (
    <DatesProvider settings={{ locale: props.lang, firstDayOfWeek: 6, weekendDays: [5, 6] }}>
      <DateTimePicker
        id={props.id}
        label={props.label}
        description={props.description}
        value={value}
        onChange={setValue}
        minDate={kuwaitNow()}
        valueFormat="DD MMM YYYY hh:mm A"
        timePickerProps={{ format: "12h" }}
        clearable
        clearButtonProps={{ "aria-label": props.clearLabel }}
        leftSection={<IconCalendar size={16} aria-hidden />}
        error={props.error}
        errorProps={{ id: props.errorId, role: "alert" }}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? props.errorId : undefined}
        popoverProps={{ withinPortal: true }}
      />
      <input type="hidden" name={props.name} value={toLocal(value)} />
    </DatesProvider>
  );
}
