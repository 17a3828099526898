/**
 * A column heading of the book and the trade tape: the label, and the unit on a second line, so
 * both fit a narrow panel without being cut ("Amount (B…").
 */
export function ColumnHeading({ label, unit }: { label: string; unit?: string }) {
  return (
    <span className="tm-column">
      <span className="tm-column-label">{label}</span>
      <span className="tm-column-unit">{unit ?? '\u00a0'}</span>
    </span>
  );
}
