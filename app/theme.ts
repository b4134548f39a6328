import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from "@mantine/core";

/**
 * Shades around the brand colour #f77c1a (shade 6). The brand orange is for surfaces (marks, charts,
 * borders); on white it is too light for text, so buttons, links and the light variant's text use the
 * darker shades 7–9, each at least 4.5:1 against white (and shade 9 against shade 1, the light
 * variant's background).
 */
const brand: MantineColorsTuple = [
  "#fff3e6",
  "#ffe6cf",
  "#fccb9f",
  "#f9ae6b",
  "#f7963f",
  "#f68724",
  "#f77c1a",
  "#b35300",
  "#9a4a00",
  "#863f00",
];

/**
 * Labels stay exactly their text (no " *"), so a field's accessible name is its label. Set as plain
 * defaults rather than with `Component.extend`: importing a component here would ship it with every page.
 */
const noAsterisk = { defaultProps: { withAsterisk: false } };

export const theme = createTheme({
  primaryColor: "brand",
  primaryShade: { light: 7, dark: 6 },
  colors: { brand },
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans Arabic", "Noto Naskh Arabic", Tahoma, Arial, sans-serif',
  defaultRadius: "md",
  cursorType: "pointer",
  components: {
    TextInput: noAsterisk,
    PasswordInput: noAsterisk,
    Textarea: noAsterisk,
    NativeSelect: noAsterisk,
    // A wide table scrolls natively (a phone's own scrolling); the client build has no ScrollArea
    // for tables (app/lib/mantine-slim.ts), so server and browser must both draw the native one.
    TableScrollContainer: { defaultProps: { type: "native" } },
  },
});

/**
 * Secondary ("dimmed") text a shade darker than Mantine's gray 6, which is 3.3:1 on white: this one
 * is 4.5:1 or more on white and on the light grays of cards and the page.
 */
export const DIMMED_TEXT = "#5c636a";

/**
 * Coloured text (`c="red"`, an error, a light badge's label) is by default shade 6 on white (2–3.6:1)
 * and shade 9 on shade 1 for light badges (2.7:1 for yellow). These are each colour's shade 9, darkened
 * where needed, at 4.6:1 or more on its shade 1, on white and on the light grays.
 */
const READABLE_TEXT: Record<string, string> = {
  red: "#c52929",
  pink: "#a61e4d",
  grape: "#862e9c",
  violet: "#5f3dc4",
  indigo: "#364fc7",
  blue: "#1864ab",
  cyan: "#0b7285",
  teal: "#087a57",
  green: "#267937",
  lime: "#4b790b",
  yellow: "#a65600",
  orange: "#bb3e0d",
};

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    "--mantine-color-dimmed": DIMMED_TEXT,
    ...Object.fromEntries(
      Object.entries(READABLE_TEXT).flatMap(([name, value]) => [
        [`--mantine-color-${name}-text`, value],
        [`--mantine-color-${name}-light-color`, value],
      ]),
    ),
  },
  dark: {},
});
