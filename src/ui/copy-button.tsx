import { useEffect, useRef, useState } from 'react';
import { writeClipboard } from './clipboard.js';
import { CheckIcon, CopyIcon } from './icons.js';

export interface CopyButtonProps {
  text: () => string;
  label: string;
  copiedLabel: string;
  className?: string;
  /** Show the icon only; the label stays the accessible name and tooltip. @default false */
  iconOnly?: boolean;
}

/** A copy button that says "Copied" for a moment; the label stays its accessible name. */
export function CopyButton({
  text,
  label,
  copiedLabel,
  className = 'da-icon-button',
  iconOnly = false,
}: CopyButtonProps) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <button
      type="button"
      className={className}
      data-state={copied ? 'copied' : 'idle'}
      aria-label={copied ? copiedLabel : label}
      title={label}
      onClick={async () => {
        if (await writeClipboard(text())) {
          setCopied(true);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => setCopied(false), 1500);
        }
      }}
    >
      {iconOnly ? copied ? <CheckIcon /> : <CopyIcon /> : copied ? copiedLabel : label}
    </button>
  );
}
