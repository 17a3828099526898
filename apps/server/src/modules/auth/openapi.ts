// The error envelope and the bearer scheme belong to the HTTP edge (adapters use them too).
export { bearerAuth, errorResponses } from '../../http/openapi.ts';
