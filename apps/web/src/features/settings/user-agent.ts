/** What a person recognises of a device from its user agent: the browser, the system, phone or not. */
export interface DeviceSummary {
  browser: string | null;
  os: string | null;
  mobile: boolean;
}

// Order matters: Edge and Opera also say Chrome, Chrome also says Safari.
const BROWSERS: ReadonlyArray<[RegExp, string]> = [
  [/Edg(?:e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];

const SYSTEMS: ReadonlyArray<[RegExp, string]> = [
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Android/, 'Android'],
  [/CrOS/, 'ChromeOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux/, 'Linux'],
];

const firstMatch = (text: string, table: ReadonlyArray<[RegExp, string]>) =>
  table.find(([pattern]) => pattern.test(text))?.[1] ?? null;

export function describeUserAgent(userAgent: string | null): DeviceSummary {
  if (!userAgent) return { browser: null, os: null, mobile: false };
  return {
    browser: firstMatch(userAgent, BROWSERS),
    os: firstMatch(userAgent, SYSTEMS),
    mobile: /Mobile|iPhone|Android/.test(userAgent),
  };
}
