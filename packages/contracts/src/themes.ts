import { z } from 'zod';

/**
 * Spec §3.1: eight visual themes, each a complete token set (colors, fonts, spacing,
 * borderRadius, shadows, effects). The client turns every token into a CSS variable, so a theme
 * switch is one attribute write and no component knows theme names.
 */
export const themeIds = [
  'brightLight',
  'darkMode',
  'gradientSunset',
  'minimalistMonochrome',
  'neonCyberpunk',
  'retroTerminal',
  'pastelMinimal',
  'ecoGreen',
] as const;

export const themeIdSchema = z.enum(themeIds);
export type ThemeId = z.infer<typeof themeIdSchema>;

/** Spec §3.1 and §9: darkMode unless the user chose another. */
export const DEFAULT_THEME_ID: ThemeId = 'darkMode';

export type ThemeMode = 'light' | 'dark';

export interface ThemeColors {
  /** Page background behind every surface. */
  background: string;
  /** Panels: sidebar, top bar, cards. */
  surface: string;
  /** Menus, modals and inputs that float over a surface. */
  surfaceRaised: string;
  surfaceHover: string;
  border: string;
  borderStrong: string;
  text: string;
  textMuted: string;
  textSubtle: string;
  primary: string;
  primaryHover: string;
  /** Text and icons drawn on a primary fill (effects.primaryFill). */
  onPrimary: string;
  /** Text on a success (buy) fill, 4.5:1 against it. */
  onSuccess: string;
  /** Text on a danger (sell) fill, 4.5:1 against it. */
  onDanger: string;
  primarySoft: string;
  accent: string;
  /** Buy, gains, success toasts. */
  success: string;
  successSoft: string;
  /** Sell, losses, errors. */
  danger: string;
  dangerSoft: string;
  warning: string;
  info: string;
  /** Modal backdrop. */
  overlay: string;
  focusRing: string;
  input: string;
  scrollbar: string;
}

export interface ThemeFonts {
  body: string;
  heading: string;
  mono: string;
  sizeXs: string;
  sizeSm: string;
  sizeMd: string;
  sizeLg: string;
  sizeXl: string;
  size2xl: string;
  weightNormal: string;
  weightMedium: string;
  weightBold: string;
  lineHeight: string;
  headingLetterSpacing: string;
}

export interface ThemeSpacing {
  xxs: string;
  xs: string;
  sm: string;
  md: string;
  lg: string;
  xl: string;
  xxl: string;
}

export interface ThemeBorderRadius {
  sm: string;
  md: string;
  lg: string;
  xl: string;
  pill: string;
}

export interface ThemeShadows {
  sm: string;
  md: string;
  lg: string;
  modal: string;
}

export interface ThemeEffects {
  /** Painted over the page background: a gradient, scanlines, or none. */
  backgroundImage: string;
  /** Backdrop filter of floating surfaces (menus, modals, top bar). */
  surfaceBlur: string;
  /** Box shadow of primary buttons and the active navigation item. */
  glow: string;
  /** Text shadow of headings. */
  textGlow: string;
  borderWidth: string;
  transition: string;
  /** Fill of primary buttons: a flat color or a gradient. */
  primaryFill: string;
}

export interface Theme {
  id: ThemeId;
  /** English name; the client shows it through the i18n key `themes.<id>`. */
  name: string;
  mode: ThemeMode;
  colors: ThemeColors;
  fonts: ThemeFonts;
  spacing: ThemeSpacing;
  borderRadius: ThemeBorderRadius;
  shadows: ThemeShadows;
  effects: ThemeEffects;
}

const systemSans =
  "Inter, 'Inter Variable', -apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
const systemMono = "'JetBrains Mono', 'SFMono-Regular', 'Cascadia Code', Menlo, Consolas, 'Liberation Mono', monospace";

const denseFonts: ThemeFonts = {
  body: systemSans,
  heading: systemSans,
  mono: systemMono,
  sizeXs: '11px',
  sizeSm: '12px',
  sizeMd: '13px',
  sizeLg: '15px',
  sizeXl: '18px',
  size2xl: '24px',
  weightNormal: '400',
  weightMedium: '500',
  weightBold: '600',
  lineHeight: '1.45',
  headingLetterSpacing: '-0.01em',
};

const denseSpacing: ThemeSpacing = {
  xxs: '2px',
  xs: '4px',
  sm: '8px',
  md: '12px',
  lg: '16px',
  xl: '24px',
  xxl: '32px',
};

const comfortableSpacing: ThemeSpacing = {
  xxs: '2px',
  xs: '6px',
  sm: '10px',
  md: '14px',
  lg: '20px',
  xl: '28px',
  xxl: '40px',
};

const darkMode: Theme = {
  id: 'darkMode',
  name: 'Dark Mode',
  mode: 'dark',
  colors: {
    background: '#0b0e14',
    surface: '#11151d',
    surfaceRaised: '#171c26',
    surfaceHover: '#1d2330',
    border: '#222936',
    borderStrong: '#2f3848',
    text: '#e7eaf0',
    textMuted: '#98a2b3',
    textSubtle: '#818b9d',
    primary: '#7598ff',
    primaryHover: '#6a90ff',
    onPrimary: '#ffffff',
    onSuccess: '#0b0e14',
    onDanger: '#0b0e14',
    primarySoft: 'rgba(79, 124, 255, 0.14)',
    accent: '#f5b942',
    success: '#16c784',
    successSoft: 'rgba(22, 199, 132, 0.14)',
    danger: '#f47179',
    dangerSoft: 'rgba(240, 68, 79, 0.14)',
    warning: '#f5b942',
    info: '#4fb3ff',
    overlay: 'rgba(3, 5, 9, 0.72)',
    focusRing: '#6a90ff',
    input: '#0e1219',
    scrollbar: '#2a3242',
  },
  fonts: denseFonts,
  spacing: denseSpacing,
  borderRadius: { sm: '4px', md: '6px', lg: '10px', xl: '14px', pill: '999px' },
  shadows: {
    sm: '0 1px 2px rgba(0, 0, 0, 0.4)',
    md: '0 6px 18px rgba(0, 0, 0, 0.35)',
    lg: '0 14px 40px rgba(0, 0, 0, 0.45)',
    modal: '0 24px 64px rgba(0, 0, 0, 0.6), 0 0 0 1px rgba(255, 255, 255, 0.04)',
  },
  effects: {
    backgroundImage: 'radial-gradient(1200px 600px at 85% -10%, rgba(79, 124, 255, 0.07), transparent 60%)',
    surfaceBlur: 'blur(10px)',
    glow: '0 0 0 1px rgba(79, 124, 255, 0.25), 0 4px 14px rgba(79, 124, 255, 0.25)',
    textGlow: 'none',
    borderWidth: '1px',
    transition: '140ms cubic-bezier(0.2, 0, 0, 1)',
    primaryFill: '#3569ff',
  },
};

const brightLight: Theme = {
  id: 'brightLight',
  name: 'Bright Light',
  mode: 'light',
  colors: {
    background: '#f4f6fa',
    surface: '#ffffff',
    surfaceRaised: '#ffffff',
    surfaceHover: '#eef2f8',
    border: '#e2e7ef',
    borderStrong: '#cbd3df',
    text: '#0f1728',
    textMuted: '#556177',
    textSubtle: '#636f83',
    primary: '#1850e6',
    primaryHover: '#1a48c9',
    onPrimary: '#ffffff',
    onSuccess: '#ffffff',
    onDanger: '#ffffff',
    primarySoft: 'rgba(35, 88, 232, 0.09)',
    accent: '#865600',
    success: '#076d47',
    successSoft: 'rgba(10, 159, 103, 0.1)',
    danger: '#b81e2b',
    dangerSoft: 'rgba(220, 44, 58, 0.09)',
    warning: '#895502',
    info: '#0863a4',
    overlay: 'rgba(15, 23, 40, 0.45)',
    focusRing: '#2358e8',
    input: '#f8fafc',
    scrollbar: '#cdd5e1',
  },
  fonts: { ...denseFonts, sizeMd: '14px', sizeLg: '16px' },
  spacing: denseSpacing,
  borderRadius: { sm: '4px', md: '8px', lg: '12px', xl: '16px', pill: '999px' },
  shadows: {
    sm: '0 1px 2px rgba(16, 24, 40, 0.06)',
    md: '0 4px 12px rgba(16, 24, 40, 0.08)',
    lg: '0 12px 32px rgba(16, 24, 40, 0.12)',
    modal: '0 24px 60px rgba(16, 24, 40, 0.22)',
  },
  effects: {
    backgroundImage: 'none',
    surfaceBlur: 'none',
    glow: '0 4px 12px rgba(35, 88, 232, 0.25)',
    textGlow: 'none',
    borderWidth: '1px',
    transition: '140ms cubic-bezier(0.2, 0, 0, 1)',
    primaryFill: '#2358e8',
  },
};

const gradientSunset: Theme = {
  id: 'gradientSunset',
  name: 'Gradient Sunset',
  mode: 'light',
  colors: {
    background: '#fff5f0',
    surface: 'rgba(255, 255, 255, 0.82)',
    surfaceRaised: '#fffaf7',
    surfaceHover: 'rgba(255, 120, 90, 0.09)',
    border: '#f6d9d2',
    borderStrong: '#eab8ad',
    text: '#2e1a2c',
    textMuted: '#7a5566',
    textSubtle: '#896072',
    primary: '#b71422',
    primaryHover: '#d63c4b',
    onPrimary: '#ffffff',
    onSuccess: '#ffffff',
    onDanger: '#ffffff',
    primarySoft: 'rgba(236, 79, 93, 0.1)',
    accent: '#9a4400',
    success: '#116b4a',
    successSoft: 'rgba(26, 158, 110, 0.1)',
    danger: '#b1233b',
    dangerSoft: 'rgba(214, 47, 75, 0.1)',
    warning: '#8f4e0b',
    info: '#6628f4',
    overlay: 'rgba(60, 20, 40, 0.4)',
    focusRing: '#b71422',
    input: '#fffdfb',
    scrollbar: '#f0c3b8',
  },
  fonts: {
    ...denseFonts,
    heading: `'Poppins', 'Avenir Next', 'Segoe UI', ${systemSans}`,
    sizeMd: '14px',
    sizeLg: '16px',
    sizeXl: '19px',
    size2xl: '26px',
    headingLetterSpacing: '-0.015em',
  },
  spacing: comfortableSpacing,
  borderRadius: { sm: '6px', md: '10px', lg: '14px', xl: '20px', pill: '999px' },
  shadows: {
    sm: '0 1px 3px rgba(180, 70, 70, 0.08)',
    md: '0 6px 18px rgba(200, 80, 90, 0.12)',
    lg: '0 16px 40px rgba(200, 80, 90, 0.16)',
    modal: '0 28px 70px rgba(120, 40, 70, 0.28)',
  },
  effects: {
    backgroundImage: 'linear-gradient(135deg, #ffe9de 0%, #ffe1ea 45%, #efe3ff 100%)',
    surfaceBlur: 'blur(14px)',
    glow: '0 6px 18px rgba(236, 79, 93, 0.32)',
    textGlow: 'none',
    borderWidth: '1px',
    transition: '180ms cubic-bezier(0.2, 0, 0, 1)',
    primaryFill: 'linear-gradient(120deg, #d93e00 0%, #e71f31 55%, #c2459d 100%)',
  },
};

const minimalistMonochrome: Theme = {
  id: 'minimalistMonochrome',
  name: 'Minimalist Monochrome',
  mode: 'dark',
  colors: {
    background: '#0a0a0a',
    surface: '#111111',
    surfaceRaised: '#171717',
    surfaceHover: '#1f1f1f',
    border: '#262626',
    borderStrong: '#3a3a3a',
    text: '#f4f4f4',
    textMuted: '#a3a3a3',
    textSubtle: '#868686',
    primary: '#f4f4f4',
    primaryHover: '#ffffff',
    onPrimary: '#0a0a0a',
    onSuccess: '#0a0a0a',
    onDanger: '#0a0a0a',
    primarySoft: 'rgba(255, 255, 255, 0.08)',
    accent: '#d4d4d4',
    success: '#8fd6a4',
    successSoft: 'rgba(143, 214, 164, 0.1)',
    danger: '#f09595',
    dangerSoft: 'rgba(240, 149, 149, 0.1)',
    warning: '#e3d08a',
    info: '#b8c4d6',
    overlay: 'rgba(0, 0, 0, 0.78)',
    focusRing: 'rgba(255, 255, 255, 0.45)',
    input: '#0d0d0d',
    scrollbar: '#333333',
  },
  fonts: {
    ...denseFonts,
    body: `'Helvetica Neue', Helvetica, Arial, ${systemSans}`,
    heading: `'Helvetica Neue', Helvetica, Arial, ${systemSans}`,
    weightBold: '500',
    headingLetterSpacing: '-0.02em',
  },
  spacing: denseSpacing,
  borderRadius: { sm: '2px', md: '2px', lg: '4px', xl: '6px', pill: '999px' },
  shadows: { sm: 'none', md: 'none', lg: '0 0 0 1px #262626', modal: '0 0 0 1px #3a3a3a' },
  effects: {
    backgroundImage: 'none',
    surfaceBlur: 'none',
    glow: 'none',
    textGlow: 'none',
    borderWidth: '1px',
    transition: '100ms linear',
    primaryFill: '#f4f4f4',
  },
};

const neonCyberpunk: Theme = {
  id: 'neonCyberpunk',
  name: 'Neon Cyberpunk',
  mode: 'dark',
  colors: {
    background: '#07040f',
    surface: '#0f0a1f',
    surfaceRaised: '#150e2b',
    surfaceHover: '#1e1440',
    border: '#2a1b52',
    borderStrong: '#43297d',
    text: '#ece6ff',
    textMuted: '#a99fd0',
    textSubtle: '#877eab',
    primary: '#ff2bd6',
    primaryHover: '#ff5be0',
    onPrimary: '#12001a',
    onSuccess: '#07040f',
    onDanger: '#07040f',
    primarySoft: 'rgba(255, 43, 214, 0.14)',
    accent: '#00f0ff',
    success: '#2dff8f',
    successSoft: 'rgba(45, 255, 143, 0.12)',
    danger: '#ff517b',
    dangerSoft: 'rgba(255, 59, 107, 0.14)',
    warning: '#ffe600',
    info: '#00f0ff',
    overlay: 'rgba(5, 0, 15, 0.78)',
    focusRing: 'rgba(0, 240, 255, 0.6)',
    input: '#0a0616',
    scrollbar: '#3a2470',
  },
  fonts: {
    ...denseFonts,
    heading: `'Orbitron', 'Rajdhani', 'Eurostile', ${systemSans}`,
    mono: `'Share Tech Mono', ${systemMono}`,
    headingLetterSpacing: '0.04em',
  },
  spacing: denseSpacing,
  borderRadius: { sm: '2px', md: '4px', lg: '6px', xl: '10px', pill: '999px' },
  shadows: {
    sm: '0 0 0 1px rgba(255, 43, 214, 0.12)',
    md: '0 0 18px rgba(255, 43, 214, 0.18)',
    lg: '0 0 32px rgba(0, 240, 255, 0.16)',
    modal: '0 0 0 1px rgba(255, 43, 214, 0.45), 0 0 48px rgba(255, 43, 214, 0.3)',
  },
  effects: {
    backgroundImage:
      'radial-gradient(900px 500px at 10% -10%, rgba(255, 43, 214, 0.16), transparent 60%), radial-gradient(900px 600px at 100% 100%, rgba(0, 240, 255, 0.12), transparent 60%)',
    surfaceBlur: 'blur(12px)',
    glow: '0 0 14px rgba(255, 43, 214, 0.6), 0 0 2px rgba(255, 43, 214, 0.9)',
    textGlow: '0 0 12px rgba(0, 240, 255, 0.55)',
    borderWidth: '1px',
    transition: '160ms ease-out',
    primaryFill: 'linear-gradient(90deg, #ff2bd6 0%, #b14dff 100%)',
  },
};

const retroTerminal: Theme = {
  id: 'retroTerminal',
  name: 'Retro Terminal',
  mode: 'dark',
  colors: {
    background: '#030703',
    surface: '#071007',
    surfaceRaised: '#0a170a',
    surfaceHover: '#0f230f',
    border: '#174017',
    borderStrong: '#1f6b1f',
    text: '#3dff6e',
    textMuted: '#27b34a',
    textSubtle: '#229b41',
    primary: '#3dff6e',
    primaryHover: '#7dff9d',
    onPrimary: '#021402',
    onSuccess: '#030703',
    onDanger: '#030703',
    primarySoft: 'rgba(61, 255, 110, 0.12)',
    accent: '#ffb000',
    success: '#3dff6e',
    successSoft: 'rgba(61, 255, 110, 0.12)',
    danger: '#ff5f56',
    dangerSoft: 'rgba(255, 95, 86, 0.14)',
    warning: '#ffb000',
    info: '#5fd7ff',
    overlay: 'rgba(0, 5, 0, 0.82)',
    focusRing: 'rgba(61, 255, 110, 0.6)',
    input: '#040a04',
    scrollbar: '#1f6b1f',
  },
  fonts: {
    ...denseFonts,
    body: `'VT323', 'IBM Plex Mono', ${systemMono}`,
    heading: `'VT323', 'IBM Plex Mono', ${systemMono}`,
    mono: `'IBM Plex Mono', ${systemMono}`,
    weightBold: '700',
    headingLetterSpacing: '0.02em',
  },
  spacing: denseSpacing,
  borderRadius: { sm: '0', md: '0', lg: '0', xl: '0', pill: '0' },
  shadows: {
    sm: 'none',
    md: '0 0 0 1px #174017',
    lg: '0 0 0 1px #1f6b1f',
    modal: '0 0 0 1px #3dff6e, 0 0 30px rgba(61, 255, 110, 0.2)',
  },
  effects: {
    backgroundImage:
      'repeating-linear-gradient(0deg, rgba(61, 255, 110, 0.035) 0, rgba(61, 255, 110, 0.035) 1px, transparent 1px, transparent 3px)',
    surfaceBlur: 'none',
    glow: '0 0 10px rgba(61, 255, 110, 0.45)',
    textGlow: '0 0 6px rgba(61, 255, 110, 0.55)',
    borderWidth: '1px',
    transition: '0ms linear',
    primaryFill: '#3dff6e',
  },
};

const pastelMinimal: Theme = {
  id: 'pastelMinimal',
  name: 'Pastel Minimal',
  mode: 'light',
  colors: {
    background: '#f7f6fb',
    surface: '#ffffff',
    surfaceRaised: '#ffffff',
    surfaceHover: '#f1eefa',
    border: '#ebe7f5',
    borderStrong: '#d8d2ea',
    text: '#34304a',
    textMuted: '#6b6682',
    textSubtle: '#6e6792',
    primary: '#533feb',
    primaryHover: '#6b5ae0',
    onPrimary: '#ffffff',
    onSuccess: '#ffffff',
    onDanger: '#ffffff',
    primarySoft: 'rgba(124, 108, 240, 0.1)',
    accent: '#29695f',
    success: '#276b56',
    successSoft: 'rgba(61, 168, 134, 0.12)',
    danger: '#b12443',
    dangerSoft: 'rgba(224, 106, 132, 0.12)',
    warning: '#7c5918',
    info: '#2161a2',
    overlay: 'rgba(52, 48, 74, 0.35)',
    focusRing: '#533feb',
    input: '#fbfaff',
    scrollbar: '#dcd6ee',
  },
  fonts: {
    ...denseFonts,
    body: `'Nunito', 'Avenir Next', ${systemSans}`,
    heading: `'Nunito', 'Avenir Next', ${systemSans}`,
    sizeMd: '14px',
    sizeLg: '16px',
    sizeXl: '19px',
    size2xl: '26px',
    weightBold: '700',
    lineHeight: '1.55',
    headingLetterSpacing: '0',
  },
  spacing: comfortableSpacing,
  borderRadius: { sm: '8px', md: '12px', lg: '16px', xl: '22px', pill: '999px' },
  shadows: {
    sm: '0 1px 3px rgba(90, 80, 150, 0.06)',
    md: '0 6px 20px rgba(90, 80, 150, 0.08)',
    lg: '0 14px 40px rgba(90, 80, 150, 0.12)',
    modal: '0 24px 64px rgba(70, 60, 130, 0.18)',
  },
  effects: {
    backgroundImage: 'none',
    surfaceBlur: 'none',
    glow: '0 6px 16px rgba(124, 108, 240, 0.28)',
    textGlow: 'none',
    borderWidth: '1px',
    transition: '200ms cubic-bezier(0.2, 0, 0, 1)',
    primaryFill: '#533feb',
  },
};

const ecoGreen: Theme = {
  id: 'ecoGreen',
  name: 'Eco Green',
  mode: 'dark',
  colors: {
    background: '#0a120e',
    surface: '#0f1a14',
    surfaceRaised: '#14231b',
    surfaceHover: '#1a2e23',
    border: '#1e3327',
    borderStrong: '#2b4a38',
    text: '#e4f2e9',
    textMuted: '#94b5a1',
    textSubtle: '#779886',
    primary: '#34d399',
    primaryHover: '#5ee3b0',
    onPrimary: '#042617',
    onSuccess: '#0a120e',
    onDanger: '#0a120e',
    primarySoft: 'rgba(52, 211, 153, 0.13)',
    accent: '#a3e635',
    success: '#34d399',
    successSoft: 'rgba(52, 211, 153, 0.13)',
    danger: '#f97c7c',
    dangerSoft: 'rgba(248, 113, 113, 0.13)',
    warning: '#facc15',
    info: '#67c8e8',
    overlay: 'rgba(2, 8, 5, 0.74)',
    focusRing: '#34d399',
    input: '#0b1510',
    scrollbar: '#2b4a38',
  },
  fonts: { ...denseFonts, heading: `'Manrope', ${systemSans}`, sizeMd: '13.5px' },
  spacing: { ...denseSpacing, md: '13px', lg: '18px' },
  borderRadius: { sm: '6px', md: '8px', lg: '12px', xl: '18px', pill: '999px' },
  shadows: {
    sm: '0 1px 2px rgba(0, 0, 0, 0.35)',
    md: '0 6px 18px rgba(0, 0, 0, 0.3)',
    lg: '0 14px 36px rgba(0, 0, 0, 0.4)',
    modal: '0 24px 60px rgba(0, 0, 0, 0.55), 0 0 0 1px rgba(52, 211, 153, 0.08)',
  },
  effects: {
    backgroundImage: 'radial-gradient(1000px 500px at 0% 0%, rgba(52, 211, 153, 0.07), transparent 60%)',
    surfaceBlur: 'blur(10px)',
    glow: '0 4px 14px rgba(52, 211, 153, 0.25)',
    textGlow: 'none',
    borderWidth: '1px',
    transition: '160ms cubic-bezier(0.2, 0, 0, 1)',
    primaryFill: 'linear-gradient(120deg, #34d399 0%, #84cc16 100%)',
  },
};

export const themes: Readonly<Record<ThemeId, Theme>> = {
  brightLight,
  darkMode,
  gradientSunset,
  minimalistMonochrome,
  neonCyberpunk,
  retroTerminal,
  pastelMinimal,
  ecoGreen,
};

/** Spec §3.1: the light themes; every other theme is dark. */
export const lightThemeIds: readonly ThemeId[] = themeIds.filter((id) => themes[id].mode === 'light');

export function isLightTheme(id: ThemeId): boolean {
  return themes[id].mode === 'light';
}

export function isThemeId(value: unknown): value is ThemeId {
  return themeIdSchema.safeParse(value).success;
}
