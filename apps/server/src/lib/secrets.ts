import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const secretsFileSchema = z.object({
  jwtSecret: z.string().min(32),
  dataKey: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
});
export type Secrets = { jwtSecret: string; dataKey: string };

/**
 * The embedded default needs no configuration, yet tokens must survive a restart: a secret made
 * at first start is kept beside the data (readable by the owner only). Several nodes must share a
 * configured JWT_SECRET instead.
 */
export function loadOrCreateSecrets(
  dataDir: string,
  configured: { jwtSecret: string | undefined; dataKey: string | undefined },
): Secrets {
  if (configured.jwtSecret && configured.dataKey)
    return { jwtSecret: configured.jwtSecret, dataKey: configured.dataKey };
  const file = path.join(dataDir, 'secrets.json');
  let stored: Partial<Secrets> = {};
  if (fs.existsSync(file)) {
    const parsed = secretsFileSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
    if (!parsed.success) {
      throw new Error(`${file} is not a valid secrets file; remove it to make a new one (every session ends)`);
    }
    stored = parsed.data;
  }
  const generated: Secrets = {
    jwtSecret: stored.jwtSecret ?? crypto.randomBytes(48).toString('base64url'),
    dataKey: stored.dataKey ?? crypto.randomBytes(32).toString('hex'),
  };
  if (generated.jwtSecret !== stored.jwtSecret || generated.dataKey !== stored.dataKey) {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(generated, null, 2), { mode: 0o600 });
  }
  return { jwtSecret: configured.jwtSecret ?? generated.jwtSecret, dataKey: configured.dataKey ?? generated.dataKey };
}
