import { useState } from 'react';
import { coverGradient } from './cover-tone';
import './tasks.css';

interface CoverImageProps {
  src: string | null;
  name: string;
  /** Picks the placeholder gradient, e.g. the id. */
  seed: string;
  className?: string;
}

/** The cover of a task or template; without one (or when it fails to load) a gradient with the name. */
export function CoverImage({ src, name, seed, className = '' }: CoverImageProps) {
  const [failed, setFailed] = useState(false);
  if (src && !failed) {
    return (
      <div className={`hf-cover ${className}`}>
        <img src={src} alt={name} loading="lazy" onError={() => setFailed(true)} />
      </div>
    );
  }
  return (
    <div
      className={`hf-cover hf-cover-placeholder ${className}`}
      style={{ background: coverGradient(seed) }}
      aria-hidden
    >
      <span>{name}</span>
    </div>
  );
}
