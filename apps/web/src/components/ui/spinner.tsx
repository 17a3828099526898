import { LoaderCircle } from 'lucide-react';

export function Spinner({ label, size = 20 }: { label: string; size?: number }) {
  return (
    <span className="spinner" role="status">
      <LoaderCircle size={size} aria-hidden="true" className="spin" />
      <span className="visually-hidden">{label}</span>
    </span>
  );
}
