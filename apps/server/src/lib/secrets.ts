import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const secretsFileSchema = z.object({ jwtSecret: z.string().min(32) });
export type Secrets = z.infer<typeof secretsFileSchema>;

/**
 * The embedded default needs no configuration, yet tokens must survive a restart: a secret made
 * at first start is kept beside the data (readable by the owner only). Several nodes must share a
 * configured JWT_SECRET instead.
 */
export function loadOrCreateSecrets(dataDir: string, configured: { jwtSecret: string | undefined }): Secrets {
  if (configured.jwtSecret) return { jwtSecret: configured.jwtSecret };
  const file = path.join(dataDir, 'secrets.json');
  if (fs.existsSync(file)) {
    const parsed = secretsFileSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
    if (parsed.success) return parsed.data;
    throw new Error(`${file} is not a valid secrets file; remove it to make a new one (every session ends)`);
  }
  const secrets: Secrets = { jwtSecret: crypto.randomBytes(48).toString('base64url') };
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
