import { z } from 'zod';

/**
 * Every expected failure the server can answer with. The code is stable and machine-readable; the
 * HTTP status travels with it so that the edge maps results to responses in one place.
 */
export const errorCatalogue = {
  VALIDATION_ERROR: { status: 400, message: 'Invalid request' },
  INVALID_CREDENTIALS: { status: 401, message: 'Invalid credentials' },
  TWO_FACTOR_REQUIRED: { status: 401, message: 'Two-factor authentication required' },
  TWO_FACTOR_INVALID: { status: 401, message: 'Invalid two-factor authentication code' },
  TWO_FACTOR_NOT_PENDING: { status: 409, message: 'Start two-factor setup before confirming it' },
  TWO_FACTOR_ALREADY_ENABLED: { status: 409, message: 'Two-factor authentication is already enabled' },
  TWO_FACTOR_NOT_ENABLED: { status: 409, message: 'Two-factor authentication is not enabled' },
  UNAUTHORIZED: { status: 401, message: 'Please login to continue' },
  TOKEN_EXPIRED: { status: 401, message: 'Your session has expired. Please log in again.' },
  REFRESH_TOKEN_INVALID: { status: 401, message: 'Your session has expired. Please log in again.' },
  REFRESH_TOKEN_REUSED: { status: 401, message: 'This session was revoked. Please log in again.' },
  ACCOUNT_FROZEN: { status: 401, message: 'This account is frozen. Please contact support.' },
  ACCOUNT_CLOSED: { status: 401, message: 'This account no longer exists.' },
  FORBIDDEN: { status: 403, message: 'You do not have access to this resource' },
  NOT_FOUND: { status: 404, message: 'Not found' },
  ACCOUNT_NOT_FOUND: { status: 404, message: 'Account not found' },
  EMAIL_TAKEN: { status: 409, message: 'An account with this email already exists' },
  USERNAME_TAKEN: { status: 409, message: 'This username is already taken' },
  EMAIL_ALREADY_VERIFIED: { status: 409, message: 'Email is already verified' },
  VERIFICATION_TOKEN_INVALID: { status: 400, message: 'This verification link is invalid or has expired' },
  PASSWORD_LOGIN_NOT_ALLOWED: { status: 401, message: 'Invalid credentials' },
  WALLET_NOT_REGISTERED: { status: 404, message: 'Wallet not registered. Please register first.' },
  WALLET_ALREADY_REGISTERED: { status: 409, message: 'This wallet is already registered. Please log in.' },
  WALLET_ADDRESS_INVALID: { status: 400, message: 'Invalid wallet address' },
  WALLET_CHALLENGE_INVALID: {
    status: 401,
    message: 'This sign-in request is invalid or was already used. Please try again.',
  },
  WALLET_CHALLENGE_EXPIRED: { status: 401, message: 'This sign-in request has expired. Please try again.' },
  WALLET_SIGNATURE_INVALID: { status: 401, message: 'The wallet signature could not be verified' },
  // Account security in Settings and password reset. Not 401: the client logs out on a session
  // 401 (§7.8), and a wrong code or password typed by a signed-in user must not end their session.
  TWO_FACTOR_CODE_INVALID: { status: 403, message: 'Invalid two-factor authentication code' },
  TWO_FACTOR_CODE_REQUIRED: { status: 403, message: 'Two-factor authentication required' },
  CURRENT_PASSWORD_INVALID: { status: 403, message: 'Current password is incorrect' },
  PASSWORD_NOT_SET: { status: 409, message: 'This account signs in with a wallet and has no password' },
  RESET_TOKEN_INVALID: { status: 400, message: 'This password reset link is invalid or has expired' },
  SESSION_NOT_FOUND: { status: 404, message: 'Session not found' },
  /** An access token minted before the account's sessions were ended (password change, sign out elsewhere). */
  SESSION_REVOKED: { status: 401, message: 'This session was revoked. Please log in again.' },
  // Trading and money (spec §8 texts where the spec has them).
  INSUFFICIENT_BALANCE: { status: 422, message: 'Insufficient balance' },
  INVALID_AMOUNT: { status: 400, message: 'Invalid amount' },
  INVALID_PRICE: { status: 400, message: 'Invalid price' },
  TRADING_PAIR_NOT_FOUND: { status: 404, message: 'Trading pair not found' },
  TRADING_PAIR_INACTIVE: { status: 409, message: 'Trading is paused for this pair' },
  ORDER_NOT_FOUND: { status: 404, message: 'Order not found' },
  // Futures (F9). Not 401 anywhere: the client treats a 401 from /futures/ paths specially (§7.8).
  FUTURES_MARKET_NOT_FOUND: { status: 404, message: 'Futures market not found' },
  FUTURES_MARKET_HALTED: { status: 409, message: 'This futures market is not trading' },
  LEVERAGE_TOO_HIGH: { status: 422, message: 'Leverage exceeds the maximum for this position size' },
  REDUCE_ONLY_WOULD_INCREASE: { status: 422, message: 'Reduce-only order would increase the position' },
  INSUFFICIENT_MARGIN: { status: 422, message: 'Insufficient margin' },
  POSITION_NOT_FOUND: { status: 404, message: 'No open position in this market' },
  MARGIN_MODE_LOCKED: {
    status: 409,
    message: 'Margin mode cannot change while a position or an open order exists in this market',
  },
  ISOLATED_MARGIN_ONLY: { status: 409, message: 'Margin can only be added to or removed from an isolated position' },
  TRANSFER_EXCEEDS_AVAILABLE: { status: 422, message: 'Amount exceeds what can be transferred' },
  POSITION_IN_LIQUIDATION: { status: 409, message: 'This position is being liquidated' },
  ORDER_NOT_OPEN: { status: 409, message: 'This order is no longer open' },
  ORDER_REJECTED: { status: 422, message: 'Order placement failed' },
  ORDER_PLACEMENT_FAILED: { status: 503, message: 'Order placement failed' },
  TRADE_NOT_FOUND: { status: 404, message: 'Trade not found' },
  IDEMPOTENCY_CONFLICT: { status: 409, message: 'This client order id was already used for a different order' },
  // Wallet (spec §5 texts).
  AMOUNT_NOT_POSITIVE: { status: 400, message: 'Amount must be greater than zero' },
  CURRENCY_NOT_SUPPORTED: { status: 400, message: 'Currency is not supported' },
  AMOUNT_BELOW_MINIMUM: { status: 400, message: 'Amount is below the minimum' },
  USERNAME_INVALID: { status: 400, message: 'Please enter a valid username' },
  RECIPIENT_NOT_FOUND: { status: 404, message: 'No user with this username' },
  TRANSFER_TO_SELF: { status: 400, message: 'You cannot send funds to yourself' },
  TRANSFER_NOT_FOUND: { status: 404, message: 'Transfer not found' },
  IDEMPOTENCY_KEY_REUSED: { status: 409, message: 'This idempotency key was already used for a different request' },
  // Deposits, payments and webhooks.
  PAYMENT_NOT_FOUND: { status: 404, message: 'Payment not found' },
  PAYMENT_EXPIRED: { status: 409, message: 'This payment has expired' },
  PAYMENT_NOT_PENDING: { status: 409, message: 'This payment can no longer be changed' },
  DEPOSIT_ADDRESS_FAILED: { status: 502, message: 'Failed to create deposit address' },
  WEBHOOK_SIGNATURE_INVALID: { status: 401, message: 'Invalid webhook signature' },
  WEBHOOK_TIMESTAMP_INVALID: { status: 401, message: 'Webhook timestamp is outside the allowed window' },
  PROVIDER_UNAVAILABLE: { status: 502, message: 'The payment provider is unavailable. Please try again.' },
  PROVIDER_REJECTED: { status: 422, message: 'The payment provider refused the request' },
  NETWORK_NOT_SUPPORTED: { status: 400, message: 'This network is not supported for this currency' },
  CARD_NOT_AVAILABLE: { status: 400, message: 'This currency cannot be bought with a card' },
  // Payments module: a retry arrived while the first request with its key is still with the provider.
  IDEMPOTENCY_REQUEST_IN_PROGRESS: {
    status: 409,
    message: 'A request with this idempotency key is still being processed. Please retry shortly.',
  },
  // Withdrawals and payouts (spec §5 texts). Not 401: the client logs out on any 401 (§7.8).
  ADDRESS_INVALID: { status: 400, message: 'Please enter a valid wallet address' },
  ADDRESS_FORMAT_INVALID: { status: 400, message: 'Invalid address format' },
  DESTINATION_TAG_INVALID: { status: 400, message: 'Invalid destination tag' },
  WITHDRAWAL_TWO_FACTOR_REQUIRED: { status: 403, message: 'Two-factor authentication required' },
  WITHDRAWAL_TWO_FACTOR_INVALID: { status: 403, message: 'Invalid two-factor authentication code' },
  DAILY_LIMIT_EXCEEDED: { status: 422, message: 'This withdrawal exceeds your daily withdrawal limit' },
  WITHDRAWAL_NOT_FOUND: { status: 404, message: 'Withdrawal not found' },
  PAYOUT_NOT_FOUND: { status: 404, message: 'Payout not found' },
  VERIFICATION_CODE_INVALID: { status: 400, message: 'Invalid verification code' },
  PAYOUT_NOT_VERIFIABLE: { status: 409, message: 'This payout is not waiting for verification' },
  // Conversions and quick trades.
  CONVERSION_NOT_SUPPORTED: { status: 400, message: 'This conversion is not supported' },
  QUOTE_EXPIRED: { status: 409, message: 'The quote has expired. Please get a new estimate.' },
  QUOTE_NOT_FOUND: { status: 404, message: 'Quote not found' },
  CONVERSION_NOT_FOUND: { status: 404, message: 'Conversion not found' },
  SIMULATOR_NOT_IN_USE: {
    status: 409,
    message: 'Prices come from live sources here; only the built-in simulator can be moved',
  },
  PRICE_UNAVAILABLE: { status: 503, message: 'No price is available for this pair right now' },
  SLIPPAGE_EXCEEDED: { status: 409, message: 'The price moved beyond your target. Please try again.' },
  QUOTE_ALREADY_USED: { status: 409, message: 'This quote was already used. Please get a new estimate.' },
  QUOTE_MISMATCH: { status: 409, message: 'This quote is for a different conversion. Please get a new estimate.' },
  PRICE_MOVED: { status: 409, message: 'The price has moved since your quote. Please get a new estimate.' },
  PRICE_STALE: { status: 503, message: 'Live prices are delayed right now. Please try again in a moment.' },
  CONVERSION_LIMIT_EXCEEDED: {
    status: 422,
    message: 'This conversion is over your per-minute conversion limit. Try a smaller amount or wait a minute.',
  },
  CONVERSION_CAPACITY_EXCEEDED: {
    status: 503,
    message: 'Conversions are very busy right now. Please try again in a minute.',
  },
  // KYC (spec §5 texts).
  FILE_TOO_LARGE: { status: 413, message: 'File size too large' },
  FILE_TYPE_INVALID: { status: 415, message: 'Invalid file type' },
  KYC_NOT_FOUND: { status: 404, message: 'Verification not found' },
  KYC_ALREADY_PENDING: { status: 409, message: 'A verification is already under review' },
  KYC_ALREADY_APPROVED: { status: 409, message: 'Your account is already verified' },
  KYC_NOT_PENDING: { status: 409, message: 'This verification was already reviewed' },
  RATE_LIMITED: { status: 429, message: 'Too many attempts. Please try again later.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'Request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Send the request body as JSON (Content-Type: application/json)' },
  // What the HTTP layer itself refuses before any route runs.
  URI_TOO_LONG: { status: 414, message: 'The request address is too long' },
  URL_INVALID: { status: 400, message: 'The request address is not valid' },
  REQUEST_HEADERS_TOO_LARGE: { status: 431, message: 'The request headers are too large' },
  REQUEST_TIMEOUT: { status: 408, message: 'The request took too long to arrive' },
  MALFORMED_REQUEST: { status: 400, message: 'The request could not be read' },
  INTERNAL_ERROR: { status: 500, message: 'Something went wrong. Please try again.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalogue;
export const errorCodes = Object.keys(errorCatalogue) as ErrorCode[];

/** The one error envelope of every non-2xx answer. */
export const errorEnvelopeSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.unknown().optional(),
  }),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/** One field problem inside VALIDATION_ERROR details. */
export const fieldIssueSchema = z.object({
  path: z.string(),
  message: z.string(),
  key: z.string().optional(),
});
export type FieldIssue = z.infer<typeof fieldIssueSchema>;

/** Spec §8 user-facing texts, referenced by the client through i18n keys of the same names. */
export const userFacingTexts = {
  networkError: 'Network error occurred',
  invalidCredentials: 'Invalid credentials',
  failedToPlaceOrder: 'Failed to place order',
  insufficientBalance: 'Insufficient balance',
  invalidAmount: 'Invalid amount',
  invalidPrice: 'Invalid price',
  tradingPairNotFound: 'Trading pair not found',
  walletConnectionFailed: 'Wallet connection failed',
  walletConnectionFailedTryAgain: 'Wallet connection failed. Please try again.',
  walletLoginFailed: 'Wallet login failed. Please try again.',
  registrationFailedTryAgain: 'Registration failed. Please try again.',
  loginFailed: 'Login failed',
  twoFactorRequired: 'Two-factor authentication required',
  walletRegistrationFailed: 'Wallet registration failed. Please try again.',
  installEthereumWallet: 'Please install MetaMask or another Ethereum wallet and try again.',
  installSolanaWallet: 'Please install Phantom or another Solana wallet and try again.',
  noAccountsFound: 'No accounts found',
  failedToConnect: 'Failed to connect',
  failedToUpdateProfile: 'Failed to update profile',
  pleaseLoginToContinue: 'Please login to continue',
  noResultsFound: 'No results found',
  noNotificationsYet: 'No notifications yet',
  noBalancesAvailable: 'No balances available',
  failedToLoadChart: 'Failed to load chart',
} as const;

/** Spec §8 success texts. */
export const successTexts = {
  loginSuccessful: 'Login successful!',
  loggedInWithWallet: 'Logged in with {{wallet}}!',
  accountCreated: 'Account created and logged in successfully!',
  walletAccountCreated: 'Wallet account created and logged in successfully!',
  accountCreatedLoginManually: 'Account created successfully! Please log in manually.',
  walletAccountCreatedLoginManually: 'Wallet account created successfully! Please log in manually.',
  /** After registering with an email that may already have had an account: the automatic login failed. */
  registrationCheckEmail: 'Please log in. If this email already had an account, we have sent you an email.',
  profileUpdated: 'Profile updated',
  walletConnected: 'Wallet connected',
  settingsSaved: 'Settings saved',
  passwordChanged: 'Password changed',
  orderPlaced: 'Order placed',
  orderCancelled: 'Order cancelled',
} as const;
