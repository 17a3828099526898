import { type ErrorCode, errorCatalogue, errorCodes } from '@platform/contracts';

/**
 * English texts the server's answers are shown with: one per error code (the API's English message
 * stays in the answer for API users; the client shows the current language's text for the code).
 * Loaded with the shell as the `server` part.
 */
export const serverTexts = {
  serverErrors: Object.fromEntries(errorCodes.map((code) => [code, errorCatalogue[code].message])) as Record<
    ErrorCode,
    string
  >,
};
