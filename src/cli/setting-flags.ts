// The flags of a command that are settings, and their --help, from the settings table;
// what commander parsed, back as settings for loadConfig.
import { Option, type Command, type OptionValues } from 'commander';
import { SETTING_KEYS, settingOf, shownDefault, shownVariable, type RawSettings, type Setting, type SettingCommand, type SettingKey } from '../settings/table.js';

/** The settings whose flag the command takes, in the table's order. */
function flaggedSettings(command: SettingCommand): { key: SettingKey; option: Option }[] {
  return SETTING_KEYS.flatMap((key) => {
    const option = settingOption(settingOf(key), command);
    return option === null ? [] : [{ key, option }];
  });
}

function settingOption(setting: Setting<unknown>, command: SettingCommand): Option | null {
  const { flag } = setting;
  if (flag === undefined || !flag.commands.includes(command)) return null;
  const option = new Option(flag.value === undefined ? flag.name : `${flag.name} ${flag.value}`, helpText(setting));
  return setting.choices === undefined ? option : option.choices(setting.choices);
}

/** `port to listen on (env PORT; default 8000)`. */
export function helpText(setting: Setting<unknown>): string {
  const shown = shownDefault(setting);
  return `${setting.help} (env ${shownVariable(setting)}${shown.literal ? `; default ${shown.text}` : ''})`;
}

export function addSettingFlags(program: Command, command: SettingCommand): Command {
  for (const { option } of flaggedSettings(command)) program.addOption(option);
  return program;
}

/** The setting flags given to the command, as settings (a switch given is 1). */
export function givenSettings(command: SettingCommand, options: OptionValues): RawSettings {
  const given: RawSettings = {};
  for (const { key, option } of flaggedSettings(command)) {
    const value: unknown = options[option.attributeName()];
    if (value === true) given[key] = '1';
    else if (typeof value === 'string') given[key] = value;
  }
  return given;
}
