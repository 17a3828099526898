/**
 * The tone of a status badge or icon, set as its data-tone attribute; theme/components/status.css
 * colours each tone from the theme. A feature maps its own statuses (an order's, a transfer's, a
 * KYC review's) to one of these instead of carrying a colour class of its own.
 */
export type Tone = 'success' | 'warning' | 'danger' | 'info' | 'neutral';
