/**
 * An element open in the file; `strayClose`: a close tag naming no open element came while it was
 * innermost.
 */
interface OpenElement {
  name: string;
  selfClosing: boolean;
  strayClose?: boolean;
}

/**
 * The elements open in the file, as followed here. Kept as they open and close, so that every step
 * is O(1) whatever the nesting (a file of 100,000 open elements and as many stray close tags stays
 * linear): how many are open by name, and how many under the note never had a stray close tag.
 */
export class OpenElements {
  private readonly open: OpenElement[] = [];
  private readonly byName = new Map<string, number>();
  private underNoteUnbroken = 0;

  get depth(): number {
    return this.open.length;
  }

  /** The innermost open element. */
  top(): OpenElement | undefined {
    return this.open[this.open.length - 1];
  }

  /** The `depth`th open element, the outermost first (0). */
  at(depth: number): OpenElement | undefined {
    return this.open[depth];
  }

  isOpen(name: string): boolean {
    return !!this.byName.get(name);
  }

  /** Whether every element under the note had its own close tag (none misspelt), so far. */
  unbrokenUnderNote(): boolean {
    return this.underNoteUnbroken === 0;
  }

  push(name: string, selfClosing: boolean): void {
    this.open.push({ name, selfClosing });
    this.byName.set(name, (this.byName.get(name) ?? 0) + 1);
    if (this.open.length > 2) this.underNoteUnbroken++;
  }

  pop(): void {
    const element = this.open.pop()!;
    this.byName.set(element.name, this.byName.get(element.name)! - 1);
    if (this.open.length >= 2 && !element.strayClose) this.underNoteUnbroken--;
  }

  /** A close tag named no open element while the innermost was open. */
  strayClose(): void {
    const top = this.top();
    if (top && !top.strayClose) {
      top.strayClose = true;
      if (this.open.length > 2) this.underNoteUnbroken--;
    }
  }
}
