import { createTheme, NativeSelect, PasswordInput, Textarea, TextInput, type MantineColorsTuple } from "@mantine/core";

/** Shades around the brand colour #f77c1a. */
const brand: MantineColorsTuple = [
  "#fff3e6",
  "#ffe6cf",
  "#fccb9f",
  "#f9ae6b",
  "#f7963f",
  "#f68724",
  "#f77c1a",
  "#dc6a0c",
  "#c45d06",
  "#ab4f00",
];

export const theme = createTheme({
  primaryColor: "brand",
  primaryShade: { light: 7, dark: 6 },
  colors: { brand },
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans Arabic", "Noto Naskh Arabic", Tahoma, Arial, sans-serif',
  defaultRadius: "md",
  cursorType: "pointer",
  // Labels stay exactly their text (no " *"), so a field's accessible name is its label.
  components: {
    TextInput: TextInput.extend({ defaultProps: { withAsterisk: false } }),
    PasswordInput: PasswordInput.extend({ defaultProps: { withAsterisk: false } }),
    Textarea: Textarea.extend({ defaultProps: { withAsterisk: false } }),
    NativeSelect: NativeSelect.extend({ defaultProps: { withAsterisk: false } }),
  },
});
