// The page's plain-language messages (loading, empty, errors, slow answers), one per topic,
// in a live region so that screen readers hear them too.

export interface StatusAction {
  label: string;
  run: () => void;
}

export class StatusLine {
  private readonly messages = new Map<string, { text: string; kind: 'info' | 'error'; action?: StatusAction }>();

  constructor(private readonly element: HTMLElement) {}

  info(topic: string, text: string): void {
    this.messages.set(topic, { text, kind: 'info' });
    this.render();
  }

  error(topic: string, text: string, action?: StatusAction): void {
    this.messages.set(topic, { text, kind: 'error', ...(action ? { action } : {}) });
    this.render();
  }

  clear(topic: string): void {
    if (this.messages.delete(topic)) this.render();
  }

  private render(): void {
    this.element.replaceChildren(...[...this.messages].map(([topic, m]) => {
      const p = document.createElement('p');
      p.className = `status-${m.kind}`;
      p.dataset.topic = topic;
      p.textContent = m.text;
      if (m.action) {
        const button = document.createElement('button');
        button.type = 'button';
        button.textContent = m.action.label;
        button.addEventListener('click', m.action.run);
        p.append(' ', button);
      }
      return p;
    }));
    this.element.hidden = this.messages.size === 0;
  }
}
