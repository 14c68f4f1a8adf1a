import type { SVGProps } from 'react';

/** Inline icons: no icon font, no emoji (headless and older systems render emoji as boxes). */
function Icon({ d, ...props }: SVGProps<SVGSVGElement> & { d: string }) {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      <path d={d} />
    </svg>
  );
}

export const ThumbUpIcon = () => (
  <Icon d="M7 10v11H3V10h4Zm0 0 4-8a3 3 0 0 1 3 3v4h5.5a2 2 0 0 1 2 2.3l-1.4 8A2 2 0 0 1 18.1 21H7" />
);
export const ThumbDownIcon = () => (
  <Icon d="M17 14V3h4v11h-4Zm0 0-4 8a3 3 0 0 1-3-3v-4H4.5a2 2 0 0 1-2-2.3l1.4-8A2 2 0 0 1 5.9 3H17" />
);
export const CopyIcon = () => <Icon d="M9 9h11v11H9zM5 15H4V4h11v1" />;
export const CheckIcon = () => <Icon d="m5 12 5 5L20 7" />;
export const RetryIcon = () => <Icon d="M3 12a9 9 0 1 0 3-6.7M3 4v5h5" />;
export const NewIcon = () => <Icon d="M12 5v14M5 12h14" />;
export const MoreIcon = () => <Icon d="M5 12h.01M12 12h.01M19 12h.01" strokeWidth="3" />;
export const CloseIcon = () => <Icon d="M6 6l12 12M18 6 6 18" />;
export const SparkleIcon = () => (
  <Icon d="M12 3l1.9 5.1L19 10l-5.1 1.9L12 17l-1.9-5.1L5 10l5.1-1.9L12 3Zm7 12 .9 2.1L22 18l-2.1.9L19 21l-.9-2.1L16 18l2.1-.9L19 15Z" />
);
export const ArrowDownIcon = () => <Icon d="M12 5v14m-6-6 6 6 6-6" />;
/** A question mark in a circle: the answer is not sure. */
export const UnsureIcon = () => (
  <Icon d="M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM9.5 9.5a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6v.6M12 17h.01" />
);
/** A circle struck through: the docs do not cover the question. */
export const NotCoveredIcon = () => (
  <Icon d="M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM5.6 5.6l12.8 12.8" />
);
