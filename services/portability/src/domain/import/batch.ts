import {
  ImportedConversationItem,
  ImportedThought,
  assistantPortabilityContract,
  thoughtsPortabilityContract,
  type ImportCountsSoFar,
  type ImportReportLine,
} from '@haven/contracts/portability';
import type { InternalClients } from '@haven/kit/internal-client';
import type { TransferRow } from '../../db/transfers.repository';
import type { SandboxItem } from './sandbox/protocol';
import type { ImportItem, ItemPosition } from './source';

/** Thoughts sent to the thoughts service at once, and the audio bytes one batch may carry. */
const BATCH_ITEMS = 200;
const BATCH_AUDIO_BYTES = 6 * 1024 * 1024;
const BATCH_LINES = 500;
const CONVERSATION_BATCH = 50;

type ThoughtItem = Extract<ImportItem, { kind: 'thought' }>;
type Pending =
  | { item: ThoughtItem; send: ImportedThought; note?: string }
  | { item: Extract<ImportItem, { kind: 'conversation' }>; send: ImportedConversationItem };

/**
 * One batch of an import: the items read since the last write, checked against the contracts,
 * then sent to the thoughts and assistant services with a key each (a batch written twice adds
 * nothing), the counts and report lines following what they answered. At most BATCH_ITEMS items,
 * BATCH_AUDIO_BYTES of audio and BATCH_LINES report lines are held at once.
 */
export class ImportBatch {
  private pending: Pending[] = [];
  private lines: ImportReportLine[] = [];
  private audioBytes = 0;

  constructor(
    private readonly internal: InternalClients,
    private readonly row: Pick<TransferRow, 'id' | 'userId'>,
    /** Counted as items are written (the caller saves them with the cursor). */
    readonly counts: ImportCountsSoFar,
  ) {}

  /** Whether the batch should be written before more is read. */
  get full(): boolean {
    return (
      this.pending.length >= BATCH_ITEMS ||
      this.audioBytes >= BATCH_AUDIO_BYTES ||
      this.lines.length >= BATCH_LINES
    );
  }

  /** Takes one item: a problem is reported, a thought or conversation checked and kept to send. */
  add(item: SandboxItem): void {
    if (item.kind === 'problem') {
      if (item.outcome === 'failed') this.counts.failed++;
      else this.counts.skipped++;
      this.lines.push({ file: item.file, outcome: item.outcome, line: item.line, reason: item.reason });
    } else if (item.kind === 'conversation') {
      const send = ImportedConversationItem.safeParse({ ...item.conversation, key: this.keyOf(item.at) });
      if (send.success) this.pending.push({ item, send: send.data });
      else this.failed(item.file, send.error.issues[0]!);
    } else {
      const send = ImportedThought.safeParse({
        ...item.thought,
        key: this.keyOf(item.at),
        audio: item.audio ?? null,
      });
      if (!send.success) return this.failed(item.file, send.error.issues[0]!);
      this.pending.push({ item, send: send.data, note: item.audioNote ?? item.note });
      this.audioBytes += send.data.audio?.data.length ?? 0;
    }
  }

  /** Sends what it holds and gives the report lines of what was written (the batch is then empty). */
  async write(): Promise<ImportReportLine[]> {
    const pending = this.pending;
    this.pending = [];
    this.audioBytes = 0;
    await this.writeThoughts(
      pending.filter((p): p is Extract<Pending, { item: ThoughtItem }> => p.item.kind === 'thought'),
    );
    await this.writeConversations(
      pending.filter(
        (p): p is Extract<Pending, { send: ImportedConversationItem }> => p.item.kind === 'conversation',
      ),
    );
    const lines = this.lines;
    this.lines = [];
    return lines;
  }

  private keyOf(at: ItemPosition) {
    return `${this.row.id}-${at.entry}-${at.item}`;
  }

  private failed(file: string, issue: { path: PropertyKey[]; message: string }) {
    this.counts.failed++;
    this.lines.push({
      file,
      outcome: 'failed',
      reason: `${issue.path.join('.') || 'value'}: ${issue.message}`,
    });
  }

  private async writeThoughts(notes: Array<Extract<Pending, { item: ThoughtItem }>>) {
    if (!notes.length) return;
    const thoughts = this.internal('thoughts', thoughtsPortabilityContract)(this.row.userId);
    const { results } = (await thoughts.importThoughts({ body: { items: notes.map((p) => p.send) } })).body;
    notes.forEach(({ item, note }, i) => {
      // A note split in parts is counted and reported once, with its last part.
      if (item.part && item.part.n !== item.part.of) return;
      const duplicate = results[i] === 'duplicate';
      if (duplicate) this.counts.duplicates++;
      else {
        this.counts.imported++;
        if (item.part) this.counts.split++;
        if (item.dateSource === 'import-day') this.counts.undated++;
      }
      this.lines.push({
        file: item.file,
        outcome: duplicate ? 'duplicate' : item.part ? 'split' : 'imported',
        reason: duplicate
          ? 'Already there (same text, date and title)'
          : [
              item.part ? `Longer than a thought: kept as ${item.part.of} parts` : undefined,
              note,
              dateNote(item),
            ]
              .filter(Boolean)
              .join('; ') || undefined,
      });
    });
  }

  private async writeConversations(convos: Array<Extract<Pending, { send: ImportedConversationItem }>>) {
    const chats = this.internal('assistant', assistantPortabilityContract)(this.row.userId);
    for (let i = 0; i < convos.length; i += CONVERSATION_BATCH) {
      const part = convos.slice(i, i + CONVERSATION_BATCH);
      const { results } = (await chats.importConversations({ body: { items: part.map((p) => p.send) } }))
        .body;
      part.forEach((p, n) => {
        const duplicate = results[n] === 'duplicate';
        if (duplicate) this.counts.duplicates++;
        else this.counts.conversations++;
        this.lines.push({
          file: p.item.file,
          outcome: duplicate ? 'duplicate' : 'imported',
          reason: `Conversation "${p.send.title.slice(0, 80)}"${duplicate ? ' already there' : ''}`,
        });
      });
    }
  }
}

function dateNote(item: ThoughtItem): string | undefined {
  if (item.dateSource === 'import-day') return 'No date found: put on the import day';
  if (item.dateSource === 'zip-time') return "Dated by the file's time in the zip";
  return undefined;
}
