import { createTheme } from '@mantine/core';

// Darker shades than Mantine's defaults for text on white, so every text meets WCAG AA contrast.
export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: 8,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
});
