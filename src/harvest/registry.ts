// Records the API repeats in many answers (an author in every record it wrote, a category
// in every feature it names), gathered once by id; two copies that differ are noted, since
// the same record can only differ when the source changed between the two requests.
export class Registry<T extends { id: number }> {
  private readonly byId = new Map<number, { value: T; text: string; where: string }>();

  constructor(
    private readonly kind: string,
    private readonly disagreements: string[],
  ) {}

  add(value: T, where: string): void {
    const text = JSON.stringify(value);
    const known = this.byId.get(value.id);
    if (known === undefined) this.byId.set(value.id, { value, text, where });
    else if (known.text !== text) this.disagreements.push(`${this.kind} ${value.id} differs between ${known.where} and ${where}`);
  }

  get(id: number): T | undefined {
    return this.byId.get(id)?.value;
  }

  sorted(): T[] {
    return [...this.byId.values()].map((e) => e.value).sort((a, b) => a.id - b.id);
  }
}
