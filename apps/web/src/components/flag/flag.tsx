import { useEffect, useState } from 'react';

type SvgModule = { default: string };

// Each flag is its own tiny chunk: the shell carries none, and a page shows only the flags it draws.
const flagLoaders: Record<string, () => Promise<SvgModule>> = {
  GB: () => import('country-flag-icons/string/3x2/GB'),
  DK: () => import('country-flag-icons/string/3x2/DK'),
  DE: () => import('country-flag-icons/string/3x2/DE'),
  ES: () => import('country-flag-icons/string/3x2/ES'),
  FR: () => import('country-flag-icons/string/3x2/FR'),
  IT: () => import('country-flag-icons/string/3x2/IT'),
  PT: () => import('country-flag-icons/string/3x2/PT'),
  RU: () => import('country-flag-icons/string/3x2/RU'),
  CN: () => import('country-flag-icons/string/3x2/CN'),
  JP: () => import('country-flag-icons/string/3x2/JP'),
  KR: () => import('country-flag-icons/string/3x2/KR'),
  SA: () => import('country-flag-icons/string/3x2/SA'),
  IN: () => import('country-flag-icons/string/3x2/IN'),
  TR: () => import('country-flag-icons/string/3x2/TR'),
  PL: () => import('country-flag-icons/string/3x2/PL'),
  NL: () => import('country-flag-icons/string/3x2/NL'),
  SE: () => import('country-flag-icons/string/3x2/SE'),
  NO: () => import('country-flag-icons/string/3x2/NO'),
  FI: () => import('country-flag-icons/string/3x2/FI'),
  CZ: () => import('country-flag-icons/string/3x2/CZ'),
  HU: () => import('country-flag-icons/string/3x2/HU'),
  RO: () => import('country-flag-icons/string/3x2/RO'),
};

const loaded = new Map<string, string>();

function flagSource(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

function useFlagSource(country: string): string | null {
  const [source, setSource] = useState(() => loaded.get(country) ?? null);
  useEffect(() => {
    const known = loaded.get(country);
    if (known) {
      setSource(known);
      return;
    }
    let current = true;
    flagLoaders[country]?.()
      .then((module) => {
        const src = flagSource(module.default);
        loaded.set(country, src);
        if (current) setSource(src);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [country]);
  return source;
}

/**
 * A country's flag as an image (systems without colour emoji would show two letters for an emoji
 * flag). Decorative: the language's name always stands beside it, so the image has no text of its own.
 */
export function Flag({ country, className }: { country: string; className?: string }) {
  const source = useFlagSource(country);
  return (
    <span className={className ? `flag ${className}` : 'flag'} aria-hidden="true" data-country={country}>
      {source ? <img src={source} alt="" width={18} height={12} decoding="async" /> : null}
    </span>
  );
}
