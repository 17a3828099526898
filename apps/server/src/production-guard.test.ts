import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const serverDir = path.resolve(import.meta.dirname, '..');

describe('the sandbox payment provider in production', () => {
  it('is refused, by name, when production would run on it (it is the default)', () => {
    for (const environment of [{ NODE_ENV: 'production' }, { NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox' }]) {
      expect(() => loadConfig(environment)).toThrow(ConfigError);
      expect(() => loadConfig(environment)).toThrow(/PAYMENT_PROVIDER.*ALLOW_SANDBOX_IN_PRODUCTION=true/s);
    }
    expect(() => loadConfig({ NODE_ENV: 'production', ALLOW_SANDBOX_IN_PRODUCTION: 'false' })).toThrow(ConfigError);
  });

  it('is allowed in production only when asked for explicitly, and anywhere else', () => {
    expect(loadConfig({ NODE_ENV: 'production', ALLOW_SANDBOX_IN_PRODUCTION: 'true' }).paymentProvider).toBe('sandbox');
    expect(loadConfig({ NODE_ENV: 'development' }).paymentProvider).toBe('sandbox');
    expect(loadConfig({ NODE_ENV: 'test' }).paymentProvider).toBe('sandbox');
    expect(loadConfig({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'nowpayments' }).paymentProvider).toBe('nowpayments');
    expect(() => loadConfig({ NODE_ENV: 'production', ALLOW_SANDBOX_IN_PRODUCTION: 'maybe' })).toThrow(
      /ALLOW_SANDBOX_IN_PRODUCTION: must be true or false/,
    );
  });

  it('stops the process with exit code 1 and a message naming the variable', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PAYMENT_PROVIDER: '',
        ALLOW_SANDBOX_IN_PRODUCTION: '',
        LOG_LEVEL: 'silent',
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Invalid configuration');
    expect(result.stderr).toContain('ALLOW_SANDBOX_IN_PRODUCTION=true');
  });
});
