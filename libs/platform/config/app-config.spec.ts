import { readFileSync } from 'node:fs';
import path from 'node:path';
import { exampleSecret } from '../../../deploy/kubernetes/manifests';
import { AppConfig, ConfigError, loadConfig } from './app-config';

describe('configuration', () => {
  it('has defaults for every setting and validates at start-up, naming the bad setting', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.SANDBOX_PORT).toBe(3001);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ WEBHOOK_RETRY_DELAYS_MS: '1000,soon' })).toThrow(/WEBHOOK_RETRY_DELAYS_MS/);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }).WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe(true);
  });

  it('reads TRUST_PROXY as a list of proxy addresses and ranges, refusing anything else', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.7,loopback, fd00::/8' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.0.2.7',
      'loopback',
      'fd00::/8',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY: '10.0.0.0\/33' is not/);
    expect(() => loadConfig({ TRUST_PROXY: 'my-balancer' })).toThrow(/TRUST_PROXY/);
  });

  it('refuses the placeholders of the example files and a short metrics token, naming the setting', () => {
    const real = {
      NODE_ENV: 'production',
      SECRETS_KEY: `k1:${Buffer.alloc(32, 7).toString('base64')}`,
      METRICS_TOKEN: 'a'.repeat(48),
      DATABASE_URL: 'postgres://erp:s3cret@postgres:5432/erp',
    };
    expect(loadConfig(real).METRICS_TOKEN).toBe('a'.repeat(48));
    // The values of deploy/kubernetes/erp-secrets.example.yaml, each alone among real ones.
    const example = exampleSecret.stringData!;
    for (const key of ['SECRETS_KEY', 'METRICS_TOKEN', 'DATABASE_URL'] as const) {
      expect(() => loadConfig({ ...real, [key]: example[key] })).toThrow(
        new RegExp(`^Invalid configuration: ${key}: holds a placeholder`),
      );
    }
    expect(() => loadConfig({ ...real, METRICS_TOKEN: 'x'.repeat(31) })).toThrow(/METRICS_TOKEN/);
    expect(loadConfig({ ...real, METRICS_TOKEN: 'x'.repeat(32) }).METRICS_TOKEN).toHaveLength(32);
  });

  it('.env.example lists every setting with its default', () => {
    const example = readFileSync(path.resolve(__dirname, '../../../.env.example'), 'utf8');
    const listed = new Map(
      example
        .split('\n')
        .filter((line) => /^[A-Z0-9_]+=/.test(line))
        .map((line) => line.split('=') as [string, string]),
    );
    const defaults = new AppConfig() as unknown as Record<string, unknown>;
    const settings = [
      ...Object.keys(defaults),
      'DATABASE_URL',
      'REDIS_URL',
      'TRUST_PROXY',
      'WEBHOOK_RETRY_DELAYS_MS',
      'PUBLIC_BASE_URL',
      'SANDBOX_BASE_URL',
    ];
    expect(settings.filter((name) => !listed.has(name))).toEqual([]);
    // Each setting with a default lists that default (the others list an example).
    const withDefaults = settings.filter((name) => defaults[name] !== undefined);
    expect(withDefaults.length).toBeGreaterThan(0);
    expect(withDefaults.map((name) => [name, listed.get(name)])).toEqual(
      withDefaults.map((name) => [name, String(defaults[name])]),
    );
  });
});
