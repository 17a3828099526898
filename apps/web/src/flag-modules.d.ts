/** country-flag-icons' one-flag modules (the package types only its indexes): an SVG document as a string. */
declare module 'country-flag-icons/string/3x2/*' {
  const svg: string;
  export default svg;
}
