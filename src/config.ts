// One typed, frozen Config: defaults, then the environment, then command-line flags, each
// setting as the table in src/settings/table.ts declares it. process.env is read here and
// nowhere else.
import type { CatalogueLimits } from './catalogue/limits.js';
import { ConfigError } from './settings/parsers.js';
import { SETTING_KEYS, SETTINGS, settingOf, type RawSettings, type SettingKey, type SettingValues } from './settings/table.js';

export { ConfigError, parseBaseUrl, parseCorsOrigins, parseDatabase, type CorsOrigins, type RateLimit } from './settings/parsers.js';
export type { RawSettings } from './settings/table.js';

/** Settings that Config holds combined into another field (below). */
type Combined = 'cacheMaxMb' | keyof CatalogueLimits;

/** Every setting's value, except where several settings (or a unit) make one field. */
export type Config = Omit<SettingValues, Combined> & {
  /** Rendered answers kept in memory, at most this many bytes (0: no cache). */
  readonly cacheMaxBytes: number;
  /** import/validate: the size limits of one record (src/catalogue/limits.ts). */
  readonly catalogueLimits: CatalogueLimits;
};

/** The settings the environment gives; a variable set empty counts as set. */
export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): RawSettings {
  const settings: RawSettings = {};
  for (const key of SETTING_KEYS) {
    const name = SETTINGS[key].env;
    const value = env[name];
    if (value === undefined) continue;
    refuseEmpty(key, value, `${name} is set but empty`, 'unset it');
    settings[key] = value;
  }
  return settings;
}

/** Flags win over the environment, which wins over the defaults. */
export function loadConfig(flags: RawSettings = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const given = definedOnly(flags);
  for (const key of SETTING_KEYS) {
    const value = given[key];
    if (value !== undefined) refuseEmpty(key, value, `${flagName(key)} is empty`, 'leave it out');
  }
  return Object.freeze(combine(parseSettings({ ...settingsFromEnv(env), ...given })));
}

/** A setting set empty is refused (not defaulted) unless empty has a meaning for it (docs/operators.md, Settings). */
function refuseEmpty(key: SettingKey, value: string, what: string, leaveOut: string): void {
  if (value.trim() !== '' || settingOf(key).emptyMeans !== undefined) return;
  throw new ConfigError(`${what}: give it a value, or ${leaveOut} for the default.`);
}

/** The flag as a sentence names it: its own, or `--` + the key in kebab case for one given only in code. */
function flagName(key: SettingKey): string {
  return settingOf(key).flag?.name ?? `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

function definedOnly(settings: RawSettings): RawSettings {
  const defined: RawSettings = {};
  for (const key of SETTING_KEYS) if (settings[key] !== undefined) defined[key] = settings[key];
  return defined;
}

/** Each setting given, or its default, through its parser. */
function parseSettings(raw: RawSettings): SettingValues {
  const parsed = SETTING_KEYS.map((key): [SettingKey, unknown] => {
    const setting = settingOf(key);
    return [key, setting.parse(raw[key] ?? setting.default, setting.env)];
  });
  // Each key is the table's, with its own parser's value: the type SettingValues declares.
  return Object.fromEntries(parsed) as SettingValues;
}

/** The fields several settings make together, and the checks between settings. */
function combine(values: SettingValues): Config {
  const { cacheMaxMb, maxStringChars, maxPositions, maxRecordBytes, ...rest } = values;
  refuseRequestBelowHeaders(rest.requestTimeoutMs, rest.headersTimeoutMs);
  return {
    ...rest,
    allowedHosts: allowedHostsWithBase(rest.allowedHosts, rest.baseUrl),
    cacheMaxBytes: cacheMaxMb * 1024 * 1024,
    catalogueLimits: Object.freeze({ maxStringChars, maxPositions, maxRecordBytes }),
  };
}

/** The Host patterns and BASE_URL's host, always (ALLOWED_HOSTS empty: only it). */
function allowedHostsWithBase(hosts: readonly string[], baseUrl: string | null): readonly string[] {
  const withBase = baseUrl === null ? hosts : [...hosts, new URL(baseUrl).hostname.toLowerCase()];
  const allowed = [...new Set(withBase.filter((h) => h !== ''))];
  if (allowed.length === 0) {
    const [hostsVar, baseVar] = [SETTINGS.allowedHosts.env, SETTINGS.baseUrl.env];
    throw new ConfigError(`${hostsVar} is empty and there is no ${baseVar}, so every request would be refused: list host names (or * for any), set ${baseVar}, or unset ${hostsVar} for the default.`);
  }
  return Object.freeze(allowed);
}

function refuseRequestBelowHeaders(requestMs: number, headersMs: number): void {
  if (requestMs >= headersMs) return;
  const [request, headers] = [SETTINGS.requestTimeoutMs.env, SETTINGS.headersTimeoutMs.env];
  throw new ConfigError(`${request} (${requestMs}) must not be below ${headers} (${headersMs}): headers are part of the request.`);
}
