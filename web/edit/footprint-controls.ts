// What the footprint's map adds above its textarea: the drawing's buttons (real buttons,
// reached by Tab; the pressed one is the mode), the map itself, a line saying what to do in
// the mode chosen, and one for problems.

export const MODES = { select: 'select', part: 'polygon', hole: 'hole' } as const;
export type Mode = (typeof MODES)[keyof typeof MODES];

const MODE_BUTTONS: { mode: Mode; label: string; help: string }[] = [
  {
    mode: MODES.select, label: 'Select and move',
    help: 'Click a shape to select it, then drag a corner, or the shape itself; drag a midpoint to add a corner; right-click a corner to remove it.',
  },
  {
    mode: MODES.part, label: 'Draw a part',
    help: 'Click the map at each corner of the new part, then click its first corner again (or press Enter) to close it. Escape cancels.',
  },
  {
    mode: MODES.hole, label: 'Draw a hole',
    help: 'Click at each corner of a courtyard inside a part, then click its first corner again to close it. Escape cancels.',
  },
];

export interface Controls {
  field: HTMLElement;
  textarea: HTMLTextAreaElement;
  mapElement: HTMLElement;
  deleteButton: HTMLButtonElement;
  onMode: (mode: Mode) => void;
  onDelete: () => void;
  onFit: () => void;
  showMode(mode: Mode): void;
  /** Says a problem, or clears it (null). */
  problem(text: string | null): void;
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string>, text = ''): HTMLElementTagNameMap[K] {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, value);
  made.textContent = text;
  return made;
}

export function buildControls(field: HTMLElement, textarea: HTMLTextAreaElement): Controls {
  const tools = element('div', { class: 'footprint-tools', role: 'group', 'aria-label': 'Drawing the footprint' });
  const modeButtons = MODE_BUTTONS.map(({ mode, label }) => element('button', { type: 'button', 'data-mode': mode, 'aria-pressed': 'false' }, label));
  const deleteButton = element('button', { type: 'button', 'data-action': 'delete' }, 'Delete the selected shape');
  deleteButton.disabled = true;
  const fitButton = element('button', { type: 'button', 'data-action': 'fit' }, 'Show the whole footprint');
  tools.append(...modeButtons, deleteButton, fitButton);
  const mapElement = element('div', { class: 'footprint-map', role: 'region', 'aria-label': 'Map for drawing the footprint' });
  const help = element('p', { class: 'footprint-help', role: 'status' });
  const problem = element('p', { class: 'footprint-problem', role: 'alert' });
  problem.hidden = true;
  field.classList.add('footprint-enhanced');
  // Above the label and its textarea: the map first, the text it writes below.
  field.prepend(tools, mapElement, help, problem);

  const controls: Controls = {
    field, textarea, mapElement, deleteButton,
    onMode: () => undefined, onDelete: () => undefined, onFit: () => undefined,
    showMode(mode) {
      for (const button of modeButtons) button.setAttribute('aria-pressed', String(button.dataset.mode === mode));
      help.textContent = MODE_BUTTONS.find((b) => b.mode === mode)?.help ?? '';
      field.dataset.mode = mode;
    },
    problem(text) {
      problem.hidden = text === null;
      problem.textContent = text ?? '';
    },
  };
  for (const button of modeButtons) {
    button.addEventListener('click', () => {
      const mode = MODE_BUTTONS.find((b) => b.mode === button.dataset.mode)?.mode;
      if (mode) controls.onMode(mode);
    });
  }
  deleteButton.addEventListener('click', () => controls.onDelete());
  fitButton.addEventListener('click', () => controls.onFit());
  return controls;
}
