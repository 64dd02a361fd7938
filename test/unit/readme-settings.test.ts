// The operators' Settings tables (docs/operators.md, found wherever they move among the docs)
// against the one table of settings (src/settings/table.ts), so that the documentation cannot
// drift: each setting's row (flag, variable, default), the rows that are serve's own flags,
// and the settings where a value set empty has a meaning.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildProgram } from '../../src/cli/main.js';
import { SETTING_KEYS, settingOf, shownDefault, shownVariable, type Setting } from '../../src/settings/table.js';
import { pageHolding } from '../support/docs.js';

const SETTINGS_HEADING = '## Settings\n';
const SETTINGS = pageHolding(SETTINGS_HEADING);

/** The body rows of the first table after `marker`, as trimmed cells (`\|` is a pipe inside a cell). */
function tableAfter(markdown: string, marker: string): string[][] {
  const at = markdown.indexOf(marker);
  assert.ok(at >= 0, `${SETTINGS.path} has ${marker}`);
  const lines = markdown.slice(at).split('\n');
  const header = lines.findIndex((line) => line.startsWith('|'));
  const end = lines.findIndex((line, i) => i > header && !line.startsWith('|'));
  return lines.slice(header + 2, end).map((line) => line.slice(1, -1).split(/(?<!\\)\|/).map((cell) => cell.trim()));
}

/** A row as the docs write it: the flag (with its commands when serve has none), the variable, the default. */
function documentedRow(setting: Setting<unknown>): string[] {
  const { flag } = setting;
  const commands = flag === undefined || flag.commands.includes('serve') ? '' : ` (${flag.commands.join(', ')})`;
  const shown = shownDefault(setting);
  return [flag === undefined ? '' : `\`${flag.name}\`${commands}`, `\`${shownVariable(setting)}\``, shown.literal ? `\`${shown.text}\`` : shown.text];
}

const byVariable = (a: string[], b: string[]) => (a[1] ?? '').localeCompare(b[1] ?? '');

describe(`${SETTINGS.path}, Settings`, () => {
  const rows = tableAfter(SETTINGS.text, SETTINGS_HEADING);

  test('the settings are on the operators\' page', () => assert.equal(SETTINGS.path, 'docs/operators.md'));

  test('a row for every setting, with its flag, variable and default, and no other setting', () => {
    const documented = rows.filter((cells) => cells[1] !== '').map((cells) => cells.slice(0, 3));
    const declared = SETTING_KEYS.map((key) => documentedRow(settingOf(key)));
    assert.deepEqual(documented.sort(byVariable), declared.sort(byVariable));
  });

  test('a row without a variable is a flag of serve that is not a setting', () => {
    const serve = buildProgram(() => {}).commands.find((command) => command.name() === 'serve');
    const settingFlags = new Set(SETTING_KEYS.map((key) => settingOf(key).flag?.name));
    const ownFlags = serve?.options.map((option) => option.long).filter((flag) => !settingFlags.has(flag)) ?? [];
    const documented = rows.filter((cells) => cells[1] === '').map((cells) => (cells[0] ?? '').replaceAll('`', ''));
    assert.deepEqual(documented.sort(), ['--init-demo', '--workers']);
    assert.deepEqual(ownFlags.sort(), documented);
  });

  test('"Set but empty" lists exactly the settings where empty has a meaning', () => {
    const listed = tableAfter(SETTINGS.text, '**Set but empty.**').flatMap((cells) => [...(cells[0] ?? '').matchAll(/`([A-Z_]+)=`/g)].map((m) => m[1]));
    const meaningful = SETTING_KEYS.map(settingOf).filter((setting) => setting.emptyMeans !== undefined).map((setting) => setting.env);
    assert.deepEqual(listed.sort(), meaningful.sort());
  });
});
